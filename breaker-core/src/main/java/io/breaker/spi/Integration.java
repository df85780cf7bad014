package io.breaker.spi;

import io.breaker.CircuitBreaker;
import io.breaker.CircuitOpenException;
import io.breaker.NanoClock;
import org.jspecify.annotations.Nullable;

import java.lang.invoke.MethodHandles;

/**
 * What an integration that drives a breaker through the two-step API (the Spring starter's aspect,
 * for example) needs from it, and its users do not: kept off {@link CircuitBreaker} so that the
 * user-facing type shows only what users call.
 *
 * <pre>{@code
 * long start = Integration.isTimingCalls(breaker) ? Integration.clock(breaker).nanoTime() : 0L;
 * }</pre>
 */
public final class Integration {

    /** Set once, by {@link CircuitBreaker}'s class initialiser (see {@link #install}). */
    private static volatile @Nullable Access installed;

    private Integration() {}

    /** The clock the breaker reads; an integration times calls with it, so tests that move it move both. */
    public static NanoClock clock(CircuitBreaker breaker) {
        return Engine.ACCESS.clock(breaker);
    }

    /**
     * Whether calls must be timed: slow-call detection is on, or a listener wants durations. When
     * {@code false} an integration may skip the clock and report a duration of 0.
     */
    public static boolean isTimingCalls(CircuitBreaker breaker) {
        return Engine.ACCESS.isTimingCalls(breaker);
    }

    /**
     * Asks for a permit as {@link CircuitBreaker#tryAcquirePermit()} does, with one difference: a call
     * rejected because the breaker is OPEN and still waiting is answered with the nanoseconds left
     * until a probe, negated (always below zero), instead of {@link CircuitBreaker#NO_PERMIT}; every
     * other rejection is {@code NO_PERMIT}. A rejected caller that needs the exception then gets it
     * from {@link #rejection(CircuitBreaker, long)} without a second clock reading.
     *
     * @return a permit (above zero; give it back exactly once, as any permit), or a rejection (zero or below)
     */
    public static long tryAcquirePermit(CircuitBreaker breaker) {
        return Engine.ACCESS.tryAcquirePermit(breaker);
    }

    /**
     * The exception for a call that {@link #tryAcquirePermit(CircuitBreaker)} rejected with
     * {@code answer} (zero or below), as {@link CircuitBreaker#acquirePermit()} would throw it: OPEN
     * with the wait left that decided it, or, for {@link CircuitBreaker#NO_PERMIT} (also from
     * {@link CircuitBreaker#tryAcquirePermit()}), the state and wait left as they are now. An
     * integration builds it only when it needs it.
     */
    public static CircuitOpenException rejection(CircuitBreaker breaker, long answer) {
        return Engine.ACCESS.rejection(breaker, answer);
    }

    /**
     * Reports a success as {@link CircuitBreaker#onSuccess(long, long)} does, given the readings of
     * {@link #clock} taken when the call started and when it ended (the duration is their
     * difference). An integration that times its calls anyway saves the breaker a clock reading: a
     * time-based window files the outcome under {@code endNanos} instead of reading the clock again.
     * Both readings must come from {@link #clock}{@code (breaker)}.
     */
    public static void onSuccess(CircuitBreaker breaker, long permit, long startNanos, long endNanos) {
        Engine.ACCESS.onSuccess(breaker, permit, startNanos, endNanos);
    }

    /**
     * Reports an error as {@link CircuitBreaker#onError(long, long, Throwable)} does (and returns what
     * it returns), given the call's start and end readings of {@link #clock}; see {@link #onSuccess}.
     */
    public static boolean onError(
            CircuitBreaker breaker, long permit, long startNanos, long endNanos, Throwable error) {
        return Engine.ACCESS.onError(breaker, permit, startNanos, endNanos, error);
    }

    /** What the engine lends this class. Implemented by the engine only: see {@link #install}. */
    public interface Access {

        /** See {@link Integration#clock}. */
        NanoClock clock(CircuitBreaker breaker);

        /** See {@link Integration#isTimingCalls}. */
        boolean isTimingCalls(CircuitBreaker breaker);

        /** See {@link Integration#tryAcquirePermit}. */
        long tryAcquirePermit(CircuitBreaker breaker);

        /** See {@link Integration#rejection}. */
        CircuitOpenException rejection(CircuitBreaker breaker, long answer);

        /** See {@link Integration#onSuccess}. */
        void onSuccess(CircuitBreaker breaker, long permit, long startNanos, long endNanos);

        /** See {@link Integration#onError}. */
        boolean onError(CircuitBreaker breaker, long permit, long startNanos, long endNanos, Throwable error);
    }

    /**
     * Called once by {@link CircuitBreaker}'s class initialiser, which lends its package-private
     * parts this way; any other caller, or a second call, is refused.
     *
     * @throws IllegalStateException if the caller is not {@link CircuitBreaker} or access was installed
     */
    public static void install(Access access) {
        Class<?> caller = StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE)
                .getCallerClass();
        synchronized (Integration.class) {
            if (caller != CircuitBreaker.class || installed != null) {
                throw new IllegalStateException(
                        "Integration.install is called by CircuitBreaker only, once; caller " + caller.getName());
            }
            installed = access;
        }
    }

    /** The engine's access, read once: initialising CircuitBreaker installs it (whichever class loads first). */
    private static final class Engine {

        static final Access ACCESS;

        static {
            try {
                MethodHandles.lookup().ensureInitialized(CircuitBreaker.class);
            } catch (IllegalAccessException e) {
                throw new ExceptionInInitializerError(e);
            }
            ACCESS = installed;
            if (ACCESS == null) {
                throw new ExceptionInInitializerError("CircuitBreaker did not install its integration access");
            }
        }
    }
}
