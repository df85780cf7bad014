package io.breaker.spring.actuate;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.OperationResponseBody;

/**
 * A {@code transition} event of {@code GET /actuator/breakers/stream}: what changed, and the breaker
 * as it is when the event is written.
 *
 * @param name       the breaker's name
 * @param transition the change
 * @param breaker    the breaker as {@code GET /actuator/breakers/{name}} shows it, when the event is written
 */
public record TransitionEventDescriptor(
        String name,
        TransitionDescriptor transition,
        @Nullable BreakerDescriptor breaker) implements OperationResponseBody {}
