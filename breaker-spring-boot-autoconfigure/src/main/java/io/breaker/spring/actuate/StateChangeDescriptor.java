package io.breaker.spring.actuate;

import io.breaker.State;
import org.springframework.boot.actuate.endpoint.OperationResponseBody;

/**
 * The answer to {@code POST /actuator/breakers/{name}}.
 *
 * @param name          the breaker's name
 * @param requested     the requested state: {@code OPEN}, {@code CLOSED} or {@code AUTO}
 * @param previousState the state before the request
 * @param state         the state after it
 * @param changed       whether the request changed this instance's state (forcing an already forced breaker does not)
 * @param fleetChanged  for a breaker shared with other instances, whether the request changed the fleet's
 *                      state: {@code true} or {@code false} as the store answered, {@code "unknown"} when the
 *                      store was asked but did not answer in time (the change may have reached it; if not,
 *                      it gets it when it answers again); {@code null} for a breaker kept in memory, and
 *                      when the store was known to be unreachable (only this instance changed, and the
 *                      store gets the change when it answers again)
 * @param principal     the authenticated user who asked, or {@code null}
 */
public record StateChangeDescriptor(
        String name,
        RequestedState requested,
        State previousState,
        State state,
        boolean changed,
        Object fleetChanged,
        String principal)
        implements OperationResponseBody {}
