/**
 * The test kit for applications that use breaker: {@link io.breaker.test.AutoConfigureBreakers} and
 * {@link io.breaker.test.BreakerExtension} put the breakers on a virtual {@link io.breaker.test.BreakerClock}
 * and reset them before each test; {@link io.breaker.test.ForceBreaker} and {@link io.breaker.test.Breakers}
 * force, trip and reset them; {@link io.breaker.test.BreakerSettings} checks a breaker's settings without
 * Spring. For test code only. Nothing is null unless marked {@code @Nullable}.
 */
@NullMarked
package io.breaker.test;

import org.jspecify.annotations.NullMarked;
