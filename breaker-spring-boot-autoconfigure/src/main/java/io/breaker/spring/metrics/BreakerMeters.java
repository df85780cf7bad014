package io.breaker.spring.metrics;

import io.breaker.BreakerListener;
import io.breaker.CallOutcome;
import io.breaker.CircuitBreaker;
import io.breaker.FaultKind;
import io.breaker.State;
import io.breaker.Transition;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.jspecify.annotations.Nullable;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The meters of one breaker in one meter registry, created up front and recorded into directly: a
 * call costs one timer record (or one counter increment for a rejection), with no look-up.
 *
 * <p>The counters of the automatic transitions exist from the start at 0, so that a Prometheus
 * {@code increase()} sees the first trip. A transition only an operator causes (to or from a forced
 * state) gets its counter on first use, once; it is cached afterwards.
 */
final class BreakerMeters implements BreakerListener {

    private static final int STATES = State.values().length;

    private final MeterRegistry meters;
    private final String name;
    private final Timer[] calls = new Timer[CallOutcome.values().length];
    private final Counter rejected;
    private final AtomicReferenceArray<@Nullable Counter> transitions = new AtomicReferenceArray<>(STATES * STATES);
    /** One counter per kind of injected fault, created by the first injection (a breaker without faults has none). */
    private final AtomicReferenceArray<@Nullable Counter> faults =
            new AtomicReferenceArray<>(FaultKind.values().length);

    BreakerMeters(CircuitBreaker breaker, MeterRegistry meters) {
        this.meters = meters;
        this.name = breaker.getName();
        for (CallOutcome outcome : CallOutcome.values()) {
            calls[outcome.ordinal()] = BreakerMeterBinder.callTimer(meters, name, outcome);
        }
        this.rejected = BreakerMeterBinder.rejectedCounter(meters, name);
        transition(State.CLOSED, State.OPEN);
        transition(State.OPEN, State.HALF_OPEN);
        transition(State.HALF_OPEN, State.OPEN);
        transition(State.HALF_OPEN, State.CLOSED);
    }

    @Override
    public void onCallRecorded(CircuitBreaker breaker, CallOutcome outcome, long durationNanos) {
        calls[outcome.ordinal()].record(durationNanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public void onCallRejected(CircuitBreaker breaker) {
        rejected.increment();
    }

    @Override
    public void onFaultInjected(CircuitBreaker breaker, FaultKind kind) {
        Counter counter = faults.get(kind.ordinal());
        if (counter == null) {
            counter = BreakerMeterBinder.faultCounter(meters, name, kind); // a race registers the same counter
            faults.set(kind.ordinal(), counter);
        }
        counter.increment();
    }

    @Override
    public void onStateTransition(Transition transition) {
        transition(transition.from(), transition.to()).increment();
    }

    private Counter transition(State from, State to) {
        int index = from.ordinal() * STATES + to.ordinal();
        Counter counter = transitions.get(index);
        if (counter == null) {
            // Two threads may both register it: the registry hands both the same counter.
            counter = BreakerMeterBinder.transitionCounter(meters, name, from, to);
            transitions.set(index, counter);
        }
        return counter;
    }

    @Override
    public String toString() {
        return "BreakerMeters{name=" + name + "}";
    }
}
