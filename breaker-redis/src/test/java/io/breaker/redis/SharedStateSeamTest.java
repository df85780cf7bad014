package io.breaker.redis;

import io.breaker.BreakerConfig;
import io.breaker.BreakerListener;
import io.breaker.CallOutcome;
import io.breaker.CircuitBreaker;
import io.breaker.NanoClock;
import io.breaker.SlidingWindowType;
import io.breaker.State;
import io.breaker.Transition;
import io.breaker.TransitionCause;
import io.breaker.spi.SharedState;
import io.breaker.spi.SharedVerdict;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The core's seam, driven by a scripted {@link SharedState} (no Redis): what a shared breaker asks
 * the store, when, and what it does with the answers. The clock is moved, never slept on.
 */
class SharedStateSeamTest {

    private static final long SECOND = Duration.ofSeconds(1).toNanos();

    private final AtomicLong now = new AtomicLong(1_000 * SECOND);
    private final ScriptedShared shared = new ScriptedShared();
    private final List<Transition> transitions = new ArrayList<>();
    private final BreakerConfig config = BreakerConfig.builder()
            .slidingWindow(SlidingWindowType.COUNT_BASED, 10)
            .minimumNumberOfCalls(5)
            .failureRateThreshold(50)
            .waitDurationInOpenState(Duration.ofSeconds(10))
            .probeLease(Duration.ofSeconds(30))
            .build();

    private CircuitBreaker sharedBreaker() {
        CircuitBreaker breaker = CircuitBreaker.of("wholesaler", config, now::get, (name, cfg) -> shared);
        breaker.addListener(new BreakerListener() {
            @Override
            public void onStateTransition(Transition transition) {
                transitions.add(transition);
            }
        });
        return breaker;
    }

    private static void fail(CircuitBreaker breaker) {
        long permit = breaker.tryAcquirePermit();
        if (permit != CircuitBreaker.NO_PERMIT) {
            breaker.onError(permit, 0L, new IOException("down"));
        }
    }

    @Test
    void aStoreThatReturnsNoLinkLeavesTheBreakerInMemory() {
        CircuitBreaker breaker = CircuitBreaker.of("local", config, now::get, (name, cfg) -> null);
        for (int i = 0; i < 5; i++) {
            fail(breaker);
        }
        assertThat(breaker.isShared()).isFalse();
        assertThat(breaker.getState()).isEqualTo(State.OPEN);
    }

    @Test
    void healthyCallsAreOnlyCountedForTheNextBatch() {
        CircuitBreaker breaker = sharedBreaker();
        for (int i = 0; i < 100; i++) {
            breaker.execute(() -> "ok");
        }
        assertThat(breaker.isShared()).isTrue();
        assertThat(shared.successes).isEqualTo(100);
        assertThat(shared.failures).isEmpty();
        assertThat(shared.probeRequests).isZero();
    }

    @Test
    void theFleetsAnswerToAFailureTripsTheInstanceAtOnce() {
        CircuitBreaker breaker = sharedBreaker();
        shared.failureAnswer = new SharedVerdict(State.OPEN, 4 * SECOND, TransitionCause.FAILURE_RATE);

        fail(breaker); // one local failure, far below the local minimum of 5

        assertThat(shared.failures).containsExactly(CallOutcome.FAILURE);
        assertThat(breaker.getState()).isEqualTo(State.OPEN);
        assertThat(breaker.getRemainingWaitNanos()).isEqualTo(4 * SECOND);
        assertThat(transitions).extracting(Transition::cause).containsExactly(TransitionCause.FAILURE_RATE);
        assertThat(breaker.tryAcquirePermit()).isEqualTo(CircuitBreaker.NO_PERMIT);
    }

    @Test
    void theLocalWindowTripsOnlyWhileTheStoreCannotAnswer() {
        CircuitBreaker breaker = sharedBreaker();
        shared.failureAnswer = new SharedVerdict(State.CLOSED, 0L, TransitionCause.PROBES_SUCCEEDED);
        for (int i = 0; i < 8; i++) {
            fail(breaker);
        }
        assertThat(breaker.getState()).isEqualTo(State.CLOSED); // the fleet's window decides

        shared.failureAnswer = null; // Redis down, fail open
        shared.localTrip = true;
        fail(breaker);

        assertThat(breaker.getState()).isEqualTo(State.OPEN);
        assertThat(breaker.getRemainingWaitNanos()).isEqualTo(10 * SECOND); // the local wait
    }

    @Test
    void onlyOneCallerPerInstanceAsksTheFleetForTheProbeAndTheWinnerProbes() {
        CircuitBreaker breaker = sharedBreaker();
        shared.adopter.accept(new SharedVerdict(State.OPEN, SECOND, TransitionCause.FAILURE_RATE));
        now.addAndGet(SECOND);
        shared.probeAnswer = new SharedVerdict(State.HALF_OPEN, 0L, TransitionCause.FAILURE_RATE);

        long permit = breaker.tryAcquirePermit();
        assertThat(permit).isNotEqualTo(CircuitBreaker.NO_PERMIT);
        assertThat(breaker.tryAcquirePermit()).isEqualTo(CircuitBreaker.NO_PERMIT); // the one permitted probe is out
        assertThat(shared.probeRequests).isEqualTo(1);
        assertThat(breaker.getState()).isEqualTo(State.HALF_OPEN);

        shared.closeAnswer = new SharedVerdict(State.CLOSED, 0L, TransitionCause.PROBES_SUCCEEDED);
        breaker.onSuccess(permit, 0L);
        assertThat(shared.closeRequests).isEqualTo(1);
        assertThat(breaker.getState()).isEqualTo(State.CLOSED);
    }

    @Test
    void anInstanceThatLosesTheProbeWaitsForTheFleetsTimeWithoutAskingAgain() {
        CircuitBreaker breaker = sharedBreaker();
        shared.adopter.accept(new SharedVerdict(State.OPEN, SECOND, TransitionCause.FAILURE_RATE));
        now.addAndGet(SECOND);
        shared.probeAnswer = new SharedVerdict(State.OPEN, 3 * SECOND, TransitionCause.FAILURE_RATE);

        assertThat(breaker.tryAcquirePermit()).isEqualTo(CircuitBreaker.NO_PERMIT);
        now.addAndGet(2 * SECOND);
        assertThat(breaker.tryAcquirePermit()).isEqualTo(CircuitBreaker.NO_PERMIT);

        assertThat(shared.probeRequests).isEqualTo(1);
        assertThat(breaker.getRemainingWaitNanos()).isEqualTo(SECOND);
        assertThat(transitions).hasSize(1); // CLOSED -> OPEN only: a new probe time is no transition
    }

    @Test
    void withoutAnAnswerTheInstanceProbesAndClosesOnItsOwn() {
        CircuitBreaker breaker = sharedBreaker();
        shared.adopter.accept(new SharedVerdict(State.OPEN, SECOND, TransitionCause.FAILURE_RATE));
        now.addAndGet(SECOND);

        long permit = breaker.tryAcquirePermit(); // probeAnswer null: fail open
        assertThat(permit).isNotEqualTo(CircuitBreaker.NO_PERMIT);
        breaker.onSuccess(permit, 0L);

        assertThat(breaker.getState()).isEqualTo(State.CLOSED);
        assertThat(transitions).extracting(Transition::to).containsExactly(State.OPEN, State.HALF_OPEN, State.CLOSED);
    }

    @Test
    void aFailedProbeTakesTheFleetsReopenTime() {
        CircuitBreaker breaker = sharedBreaker();
        shared.adopter.accept(new SharedVerdict(State.OPEN, 0L, TransitionCause.FAILURE_RATE));
        now.addAndGet(SECOND);
        shared.probeAnswer = new SharedVerdict(State.HALF_OPEN, 0L, TransitionCause.FAILURE_RATE);
        shared.probeFailedAnswer = new SharedVerdict(State.OPEN, 7 * SECOND, TransitionCause.PROBE_FAILED);

        fail(breaker);

        assertThat(breaker.getState()).isEqualTo(State.OPEN);
        assertThat(breaker.getRemainingWaitNanos()).isEqualTo(7 * SECOND);
        assertThat(transitions.get(transitions.size() - 1).cause()).isEqualTo(TransitionCause.PROBE_FAILED);
    }

    @Test
    void anOperatorChangeGoesToTheFleetAndFallsBackToTheInstance() {
        CircuitBreaker breaker = sharedBreaker();
        shared.operatorAnswer = new SharedVerdict(State.FORCED_OPEN, 0L, TransitionCause.OPERATOR);
        assertThat(breaker.forceOpen()).isTrue();
        assertThat(shared.operatorTargets).containsExactly(State.FORCED_OPEN);
        assertThat(breaker.getState()).isEqualTo(State.FORCED_OPEN);

        shared.operatorAnswer = null; // Redis down: the local breaker changes anyway
        assertThat(breaker.release()).isTrue();
        assertThat(breaker.getState()).isEqualTo(State.CLOSED);
    }

    @Test
    void theStoreMovesTheInstanceToTheFleetsState() {
        CircuitBreaker breaker = sharedBreaker();
        shared.adopter.accept(new SharedVerdict(State.FORCED_CLOSED, 0L, TransitionCause.OPERATOR));
        assertThat(breaker.getState()).isEqualTo(State.FORCED_CLOSED);
        for (int i = 0; i < 10; i++) {
            fail(breaker);
        }
        assertThat(shared.failures).isEmpty(); // forced: outcomes stay local
        shared.adopter.accept(new SharedVerdict(State.CLOSED, 0L, TransitionCause.OPERATOR));
        assertThat(breaker.getState()).isEqualTo(State.CLOSED);
        assertThat(transitions).extracting(Transition::cause).containsOnly(TransitionCause.OPERATOR);
    }

    /** A store link that answers what the test says and records what it was asked. */
    @Test
    void whenTheStoreStartsAllowingLocalTripsTheNextFailureTripsAWindowAlreadyFullOfFailures() {
        // Found by the fleet of processes: Redis paused while the dependency failed; the local window
        // filled with failures while the fleet decided, and once the store was down no failure changed
        // a slot any more, so the local verdict was never asked again: 1,266 calls reached the dependency.
        CircuitBreaker breaker = sharedBreaker();
        for (int i = 0; i < 20; i++) {
            fail(breaker);
        }
        assertThat(breaker.getState()).isEqualTo(State.CLOSED); // the fleet decides while the store answers

        shared.localTrip = true; // the store is down: each instance protects itself
        fail(breaker);

        assertThat(breaker.getState()).isEqualTo(State.OPEN);
    }

    private static final class ScriptedShared implements SharedState {

        Consumer<SharedVerdict> adopter;
        long successes;
        final List<CallOutcome> failures = new ArrayList<>();
        final List<State> operatorTargets = new ArrayList<>();
        SharedVerdict failureAnswer;
        SharedVerdict probeAnswer;
        SharedVerdict probeFailedAnswer;
        SharedVerdict closeAnswer;
        SharedVerdict operatorAnswer;
        boolean localTrip;
        int probeRequests;
        int closeRequests;

        @Override
        public void connect(Consumer<SharedVerdict> adopter, NanoClock clock) {
            this.adopter = adopter;
        }

        @Override
        public void recordSuccess() {
            successes++;
        }

        @Override
        public SharedVerdict recordFailure(CallOutcome outcome) {
            failures.add(outcome);
            return failureAnswer;
        }

        @Override
        public boolean allowsLocalTrip() {
            return localTrip;
        }

        @Override
        public SharedVerdict tryAcquireProbe() {
            probeRequests++;
            return probeAnswer;
        }

        @Override
        public SharedVerdict probeFailed() {
            return probeFailedAnswer;
        }

        @Override
        public SharedVerdict probesSucceeded() {
            closeRequests++;
            return closeAnswer;
        }

        @Override
        public SharedVerdict operatorSets(State target) {
            operatorTargets.add(target);
            return operatorAnswer;
        }
    }
}
