package io.breaker.test;

import io.breaker.State;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Repeatable;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Forces a breaker into a state before each test, as an operator would ({@code FORCED_OPEN}: every
 * call rejected; {@code FORCED_CLOSED}: every call passes and the breaker never trips), after
 * {@link BreakerExtension} has reset every breaker. On a test class it applies to each of its tests,
 * before the test method's own. {@code OPEN} means {@code FORCED_OPEN} and {@code CLOSED} means
 * {@code FORCED_CLOSED}; {@code HALF_OPEN} cannot be forced (trip the breaker with
 * {@link Breakers#trip(String)} and advance the clock past its wait instead).
 *
 * <pre>{@code
 * @Test
 * @ForceBreaker(name = "wholesaler", state = State.OPEN)
 * void answersFromTheFallbackWhileTheWholesalerIsCutOff() { ... }
 * }</pre>
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
@Repeatable(ForceBreaker.List.class)
public @interface ForceBreaker {

    /** The breaker's name; a name that does not exist fails the test with the names that do. */
    String name();

    /** The state to force: {@code OPEN} (or {@code FORCED_OPEN}) or {@code CLOSED} (or {@code FORCED_CLOSED}). */
    State state() default State.OPEN;

    /** Several {@link ForceBreaker}s on one element. */
    @Documented
    @Retention(RetentionPolicy.RUNTIME)
    @Target({ElementType.TYPE, ElementType.METHOD})
    @interface List {
        ForceBreaker[] value();
    }
}
