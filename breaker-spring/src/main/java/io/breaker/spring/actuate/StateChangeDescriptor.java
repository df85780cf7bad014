package io.breaker.spring.actuate;

import io.breaker.State;

/**
 * The answer to {@code POST /actuator/breakers/{name}}.
 *
 * @param name          the breaker's name
 * @param requested     the requested state: {@code OPEN}, {@code CLOSED} or {@code AUTO}
 * @param previousState the state before the request
 * @param state         the state after it
 * @param changed       whether the request changed the state (forcing an already forced breaker does not)
 * @param principal     the authenticated user who asked, or {@code null}
 */
public record StateChangeDescriptor(String name, RequestedState requested, State previousState, State state,
                                    boolean changed, String principal) {
}
