package io.breaker.redis;

import io.breaker.State;

import java.time.Duration;

/**
 * A shared breaker's state in Redis's last answer to this instance, for the {@code breakers} endpoint.
 *
 * @param state the fleet's state in that answer
 * @param age   how long ago the answer came
 */
record FleetSeen(State state, Duration age) {}
