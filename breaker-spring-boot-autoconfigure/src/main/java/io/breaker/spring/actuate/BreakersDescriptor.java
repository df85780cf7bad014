package io.breaker.spring.actuate;

import org.springframework.boot.actuate.endpoint.OperationResponseBody;

import java.util.List;

/**
 * Every breaker of the registry, sorted by name: the body of {@code GET /actuator/breakers}.
 *
 * @param breakers one entry per breaker
 */
public record BreakersDescriptor(List<BreakerDescriptor> breakers) implements OperationResponseBody {}
