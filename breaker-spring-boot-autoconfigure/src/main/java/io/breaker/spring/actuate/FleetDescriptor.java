package io.breaker.spring.actuate;

import io.breaker.State;

import java.time.Duration;

/**
 * A shared breaker's state in the store, as this instance last heard it from the store (the
 * breaker's own {@code state} is this instance's view, which the store's answers keep in step).
 *
 * @param state the fleet's state in the store's last answer to this instance
 * @param age   how long ago that answer came
 */
public record FleetDescriptor(State state, Duration age) {}
