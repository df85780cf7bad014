/**
 * The Redis-backed breaker on its happy path: a healthy call through a breaker whose state is shared
 * through Redis (state cache, default TTL 1 s), next to the in-memory breaker and resilience4j
 * configured alike ({@link io.breaker.benchmarks.redis.SharedClosedPath}), and the Redis round trips
 * per 1,000 healthy calls as Redis counts them ({@link io.breaker.benchmarks.redis.RoundTrips}). Each
 * starts a private {@code redis-server} on a free port. Results: {@code docs/benchmarks.md}, section
 * "Many instances (Redis-backed)". Nothing is null unless marked {@code @Nullable}.
 */
@NullMarked
package io.breaker.benchmarks.redis;

import org.jspecify.annotations.NullMarked;
