package io.breaker;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/** Remembers everything a breaker tells its listeners. */
final class RecordingListener implements BreakerListener {

    final List<Transition> transitions = new CopyOnWriteArrayList<>();
    final List<CallOutcome> outcomes = new CopyOnWriteArrayList<>();
    final AtomicInteger rejections = new AtomicInteger();

    @Override
    public void onStateTransition(Transition transition) {
        transitions.add(transition);
    }

    @Override
    public void onCallRecorded(CircuitBreaker breaker, CallOutcome outcome, long durationNanos) {
        outcomes.add(outcome);
    }

    @Override
    public void onCallRejected(CircuitBreaker breaker) {
        rejections.incrementAndGet();
    }
}
