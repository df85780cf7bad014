package io.breaker;

import org.jspecify.annotations.Nullable;

import java.lang.reflect.Constructor;
import java.lang.reflect.Modifier;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.DoubleSupplier;

/*
 * Fault injection: failures and latency a breaker puts into the calls it protects (the fault-*
 * settings of BreakerConfig), so that a team can rehearse an outage without touching the dependency.
 *
 * Invariants:
 * - A breaker whose settings inject nothing has no Faults: its field `faults` is null, derived by
 *   Reconfiguration.settle like slowNanos, and the call path pays one plain read of it and a branch.
 *   Turning faults on or off is a reconfiguration, so a CLOSED breaker gets a fresh window.
 * - A fault is injected after the permit and before the method runs, on every integration's path
 *   through the methods below (one place): latency first, then the failure, each drawn on its own.
 * - An injected failure is thrown, or signalled, as the method's own would be: the breaker records
 *   and classifies it through its normal path, and the fallback rules apply to it.
 * - Each injection is told to the breaker's listeners (onFaultInjected) when it is drawn, so meters
 *   can tell a rehearsal from an outage.
 */

/**
 * The faults one breaker injects into its calls, as its settings say ({@link BreakerConfig#FAULT_FAILURE_RATE},
 * {@link BreakerConfig#FAULT_EXCEPTION}, {@link BreakerConfig#FAULT_LATENCY},
 * {@link BreakerConfig#FAULT_LATENCY_RATE}). {@link CircuitBreaker#execute} and its siblings inject
 * them by themselves; an integration that drives the two-step API gets them from
 * {@link io.breaker.internal.Integration#faults} (null when none are set) and, after the permit and
 * before the method, calls {@link #beforeCall()} for a blocking call, or draws {@link #latencyNanos()}
 * and {@link #failure()} and delays or fails its asynchronous call without blocking.
 */
public final class Faults {

    /** Waits the injected latency on the calling thread; tests give one that moves a virtual clock. */
    @FunctionalInterface
    public interface Sleeper {

        /** Waits {@code nanos} nanoseconds, or less if interrupted (then throws). */
        void sleep(long nanos) throws InterruptedException;
    }

    /** The default: {@link Thread#sleep}. */
    static final Sleeper THREAD_SLEEP = nanos -> Thread.sleep(nanos / 1_000_000L, (int) (nanos % 1_000_000L));

    private final CircuitBreaker breaker;
    private final double failureShare;
    private final Class<? extends Throwable> exception;
    private final @Nullable Constructor<? extends Throwable> withMessage;
    private final long latencyNanos;
    private final double latencyShare;
    private final @Nullable DoubleSupplier random;
    private final Sleeper sleeper;

    private Faults(CircuitBreaker breaker, BreakerConfig config) {
        this.breaker = breaker;
        this.failureShare = config.getFaultFailureRate() / 100.0;
        this.exception = config.getFaultException();
        this.withMessage = messageConstructor(exception);
        this.latencyNanos =
                config.getFaultLatency() == null ? 0L : config.getFaultLatency().toNanos();
        this.latencyShare = config.getFaultLatencyRate() / 100.0;
        this.random = config.getFaultRandom();
        Sleeper configured = config.getFaultSleeper();
        this.sleeper = configured == null ? THREAD_SLEEP : configured;
    }

    /**
     * The faults {@code breaker} injects into its calls now, or {@code null} when its settings inject
     * none: one plain read of a field (integrations call it through
     * {@link io.breaker.internal.Integration#faults}).
     */
    public static @Nullable Faults injectedInto(CircuitBreaker breaker) {
        return breaker.faults;
    }

    /** The faults {@code config} injects into {@code breaker}'s calls, or {@code null} when it injects none. */
    static @Nullable Faults of(CircuitBreaker breaker, BreakerConfig config) {
        return config.isFaultInjectionEnabled() ? new Faults(breaker, config) : null;
    }

    /**
     * For a call that blocks its thread: waits the latency if this call draws it, then throws the
     * failure if this call draws it (a checked exception is thrown as it is). An interrupt while it
     * waits ends the call with the {@link InterruptedException}, as an interruptible method would.
     */
    public void beforeCall() {
        long delay = latencyNanos();
        if (delay > 0L) {
            try {
                sleeper.sleep(delay);
            } catch (InterruptedException interrupted) {
                throw Faults.<RuntimeException>sneaky(interrupted);
            }
        }
        Throwable failure = failure();
        if (failure != null) {
            throw Faults.<RuntimeException>sneaky(failure);
        }
    }

    /** Draws the latency for one call: the nanoseconds to delay it by, or 0 when this call is not delayed. */
    public long latencyNanos() {
        if (latencyNanos == 0L || !draw(latencyShare)) {
            return 0L;
        }
        Listeners.faultInjected(breaker, FaultKind.LATENCY);
        return latencyNanos;
    }

    /** Draws the failure for one call: the exception to fail it with, or {@code null} when this call does not fail. */
    public @Nullable Throwable failure() {
        if (!draw(failureShare)) {
            return null;
        }
        Listeners.faultInjected(breaker, FaultKind.FAILURE);
        return newFailure();
    }

    private boolean draw(double share) {
        if (share >= 1.0) {
            return true;
        }
        if (share <= 0.0) {
            return false;
        }
        DoubleSupplier source = random;
        return (source == null ? ThreadLocalRandom.current().nextDouble() : source.getAsDouble()) < share;
    }

    private Throwable newFailure() {
        if (exception == InjectedFaultException.class) {
            return new InjectedFaultException(breaker.getName());
        }
        try {
            return withMessage != null
                    ? withMessage.newInstance("Failure injected by circuit breaker '" + breaker.getName() + "'")
                    : exception.getConstructor().newInstance();
        } catch (ReflectiveOperationException | RuntimeException cannotBuild) {
            return new InjectedFaultException(breaker.getName()); // checked by the setting; kept as a fault anyway
        }
    }

    /** Whether {@code type} can be thrown by fault injection: a concrete throwable with a public (String) or () constructor. */
    static boolean isInjectable(@Nullable Class<?> type) {
        if (type == null || !Throwable.class.isAssignableFrom(type) || Modifier.isAbstract(type.getModifiers())) {
            return false;
        }
        if (type == InjectedFaultException.class || messageConstructor(type) != null) {
            return true;
        }
        try {
            type.getConstructor();
            return true;
        } catch (NoSuchMethodException none) {
            return false;
        }
    }

    @SuppressWarnings("unchecked")
    private static @Nullable Constructor<? extends Throwable> messageConstructor(Class<?> type) {
        try {
            return (Constructor<? extends Throwable>) type.getConstructor(String.class);
        } catch (NoSuchMethodException none) {
            return null;
        }
    }

    @SuppressWarnings("unchecked")
    private static <E extends Throwable> E sneaky(Throwable error) throws E {
        throw (E) error;
    }

    @Override
    public String toString() {
        return "Faults{breaker=" + breaker.getName() + ", failureRate=" + failureShare * 100 + ", exception="
                + exception.getName() + ", latencyNanos=" + latencyNanos + ", latencyRate=" + latencyShare * 100 + "}";
    }
}
