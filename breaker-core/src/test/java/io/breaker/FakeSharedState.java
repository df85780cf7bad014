package io.breaker;

import io.breaker.spi.SharedState;
import io.breaker.spi.SharedVerdict;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * A store's link for the core tests: it answers every failure report and probe request with one
 * given verdict ({@code null}: the store said nothing), says whether the local window may trip, and
 * keeps what it was told of trips made alone. Successes and probe outcomes get no answer.
 */
final class FakeSharedState implements SharedState {

    /** A trip made alone, as the breaker told it to the store. */
    record TrippedAlone(TransitionCause cause, long waitNanos, WaitReason reason) {}

    private final SharedVerdict verdict;
    private final boolean localTrip;
    final List<TrippedAlone> trippedAlone = new CopyOnWriteArrayList<>();

    private FakeSharedState(SharedVerdict verdict, boolean localTrip) {
        this.verdict = verdict;
        this.localTrip = localTrip;
    }

    /** A store that answers nothing; {@code localTrip} is what {@link #allowsLocalTrip()} says. */
    static FakeSharedState silent(boolean localTrip) {
        return new FakeSharedState(null, localTrip);
    }

    /** A fleet that answers every failure report and probe request with {@code verdict}; no local trip. */
    static FakeSharedState answering(SharedVerdict verdict) {
        return new FakeSharedState(verdict, false);
    }

    @Override
    public void connect(Consumer<SharedVerdict> adopter, NanoClock clock) {}

    @Override
    public void recordSuccess() {}

    @Override
    public SharedVerdict recordFailure(CallOutcome outcome) {
        return verdict;
    }

    @Override
    public boolean allowsLocalTrip() {
        return localTrip;
    }

    @Override
    public void trippedAlone(TransitionCause cause, long waitNanos, WaitReason waitReason) {
        trippedAlone.add(new TrippedAlone(cause, waitNanos, waitReason));
    }

    @Override
    public SharedVerdict tryAcquireProbe() {
        return verdict;
    }

    @Override
    public SharedVerdict probeFailed() {
        return null;
    }

    @Override
    public SharedVerdict probesSucceeded() {
        return null;
    }

    @Override
    public SharedVerdict operatorSets(State target) {
        return null;
    }
}
