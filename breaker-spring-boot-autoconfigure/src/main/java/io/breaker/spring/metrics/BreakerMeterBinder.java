package io.breaker.spring.metrics;

import io.breaker.BreakerConfig;
import io.breaker.BreakerRegistry;
import io.breaker.CallOutcome;
import io.breaker.CircuitBreaker;
import io.breaker.FaultKind;
import io.breaker.State;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.MeterBinder;

import java.util.Locale;
import java.util.Objects;

/**
 * Publishes the meters of every breaker of a registry, including breakers created after binding.
 * Every meter is created once per breaker, when the breaker is bound; the call path only records
 * into meters it already holds.
 *
 * <table>
 * <caption>Meters</caption>
 * <tr><th>name</th><th>type</th><th>tags</th></tr>
 * <tr><td>{@value #CALLS}</td><td>timer</td><td>name, outcome = success, failure, slow_success, slow_cancelled, slow_failure, ignored</td></tr>
 * <tr><td>{@value #REJECTED}</td><td>counter</td><td>name</td></tr>
 * <tr><td>{@value #STATE}</td><td>gauge, 1 for the current state, 0 for the others</td><td>name, state</td></tr>
 * <tr><td>{@value #FAILURE_RATE}</td><td>gauge, percent or -1</td><td>name</td></tr>
 * <tr><td>{@value #SLOW_CALL_RATE}</td><td>gauge, percent or -1</td><td>name</td></tr>
 * <tr><td>{@value #TRANSITIONS}</td><td>counter</td><td>name, from, to</td></tr>
 * <tr><td>{@value #FAILURE_RATE_THRESHOLD}</td><td>gauge, percent</td><td>name</td></tr>
 * <tr><td>{@value #SLOW_CALL_RATE_THRESHOLD}</td><td>gauge, percent or -1</td><td>name</td></tr>
 * <tr><td>{@value #WAIT_REMAINING}</td><td>gauge, seconds or -1</td><td>name</td></tr>
 * <tr><td>{@value #FAULTS_INJECTED}</td><td>counter, from the first injected fault</td><td>name, kind = failure, latency</td></tr>
 * </table>
 * Tag values are lower-case ({@code half_open}).
 */
public class BreakerMeterBinder implements MeterBinder {

    /** Timer of the calls that went through, by outcome. */
    public static final String CALLS = "breaker.calls";
    /** Counter of the calls rejected without calling the dependency. */
    public static final String REJECTED = "breaker.calls.rejected";
    /** Gauge per state: 1 for the current one. */
    public static final String STATE = "breaker.state";
    /** Gauge of the window's failure rate, in percent. */
    public static final String FAILURE_RATE = "breaker.failure.rate";
    /** Gauge of the window's slow-call rate, in percent. */
    public static final String SLOW_CALL_RATE = "breaker.slow.call.rate";
    /** Counter of state changes, by from and to. */
    public static final String TRANSITIONS = "breaker.transitions";
    /** Gauge of the failure rate at which the breaker trips, in percent. */
    public static final String FAILURE_RATE_THRESHOLD = "breaker.failure.rate.threshold";
    /** Gauge of the slow-call rate at which the breaker trips, in percent; -1 while slow-call detection is off. */
    public static final String SLOW_CALL_RATE_THRESHOLD = "breaker.slow.call.rate.threshold";
    /** Gauge of the time left until the next probe while OPEN, in seconds; -1 in the other states. */
    public static final String WAIT_REMAINING = "breaker.wait.remaining";

    /**
     * Counter of the faults injected into calls, by kind: a meter of its own, so that a rehearsal's
     * failures, also counted in {@value #CALLS}, can be told from an outage's.
     */
    public static final String FAULTS_INJECTED = "breaker.faults.injected";

    private final BreakerRegistry breakers;

    /** A binder for every breaker of {@code breakers}, present and future. */
    public BreakerMeterBinder(BreakerRegistry breakers) {
        this.breakers = Objects.requireNonNull(breakers, "breakers");
    }

    @Override
    public void bindTo(MeterRegistry meters) {
        breakers.onBreakerCreated(breaker -> bind(breaker, meters));
    }

    private static void bind(CircuitBreaker breaker, MeterRegistry meters) {
        String name = breaker.getName();
        for (State state : State.values()) {
            Gauge.builder(STATE, breaker, b -> b.getState() == state ? 1 : 0)
                    .description("1 for the breaker's current state, 0 for the others")
                    .tag("name", name)
                    .tag("state", tag(state))
                    .register(meters);
        }
        Gauge.builder(FAILURE_RATE, breaker, b -> b.getMetrics().failureRate())
                .description(
                        "Failed calls in the breaker's window, in percent; -1 until the window holds the minimum number of calls")
                .baseUnit("percent")
                .tag("name", name)
                .register(meters);
        Gauge.builder(SLOW_CALL_RATE, breaker, b -> b.getMetrics().slowCallRate())
                .description(
                        "Slow calls in the breaker's window, in percent; -1 until the window holds the minimum number of calls or when slow-call detection is off")
                .baseUnit("percent")
                .tag("name", name)
                .register(meters);
        // The thresholds are read from the breaker's current settings, which can change at runtime.
        Gauge.builder(FAILURE_RATE_THRESHOLD, breaker, b -> b.getConfig().getFailureRateThreshold())
                .description("Failure rate in the breaker's window at which it trips, in percent")
                .baseUnit("percent")
                .tag("name", name)
                .register(meters);
        Gauge.builder(SLOW_CALL_RATE_THRESHOLD, breaker, BreakerMeterBinder::slowCallRateThreshold)
                .description(
                        "Slow-call rate in the breaker's window at which it trips, in percent; -1 while slow-call detection is off")
                .baseUnit("percent")
                .tag("name", name)
                .register(meters);
        Gauge.builder(WAIT_REMAINING, breaker, BreakerMeterBinder::waitRemainingSeconds)
                .description(
                        "Seconds left until the next call may probe the dependency while OPEN (0 once due); -1 in the other states")
                .baseUnit("seconds")
                .tag("name", name)
                .register(meters);
        breaker.addListener(new BreakerMeters(breaker, meters));
    }

    private static double slowCallRateThreshold(CircuitBreaker breaker) {
        BreakerConfig config = breaker.getConfig();
        return config.getSlowCallDurationThreshold() == null ? -1 : config.getSlowCallRateThreshold();
    }

    private static double waitRemainingSeconds(CircuitBreaker breaker) {
        long nanos = breaker.getRemainingWaitNanos();
        return nanos < 0 ? -1 : nanos / 1e9;
    }

    static String tag(Enum<?> value) {
        return value.name().toLowerCase(Locale.ROOT);
    }

    static Timer callTimer(MeterRegistry meters, String name, CallOutcome outcome) {
        return Timer.builder(CALLS)
                .description("Calls that went through the breaker, by outcome, with their durations")
                .tag("name", name)
                .tag("outcome", tag(outcome))
                .register(meters);
    }

    static Counter rejectedCounter(MeterRegistry meters, String name) {
        return Counter.builder(REJECTED)
                .description(
                        "Calls the breaker rejected without calling the dependency (OPEN, HALF_OPEN with every probe taken, FORCED_OPEN)")
                .tag("name", name)
                .register(meters);
    }

    static Counter faultCounter(MeterRegistry meters, String name, FaultKind kind) {
        return Counter.builder(FAULTS_INJECTED)
                .description(
                        "Faults the breaker injected into its calls (fault injection), by kind: failure or latency")
                .tag("name", name)
                .tag("kind", tag(kind))
                .register(meters);
    }

    static Counter transitionCounter(MeterRegistry meters, String name, State from, State to) {
        return Counter.builder(TRANSITIONS)
                .description("State changes of the breaker")
                .tag("name", name)
                .tag("from", tag(from))
                .tag("to", tag(to))
                .register(meters);
    }
}
