package io.breaker.spring.actuate;

import io.breaker.BreakerConfig;
import io.breaker.BreakerRegistry;
import io.breaker.CircuitBreaker;
import io.breaker.SlidingWindowType;
import io.breaker.State;
import io.breaker.TransitionCause;
import io.breaker.spring.actuate.BreakerOperations.ChangeResult;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/** The endpoint's logic, without Spring. */
class BreakerOperationsTest {

    private final AtomicLong nanos = new AtomicLong();
    private final BreakerConfig config = BreakerConfig.builder()
            .slidingWindow(SlidingWindowType.COUNT_BASED, 4)
            .minimumNumberOfCalls(4)
            .failureRateThreshold(50)
            .waitDurationInOpenState(Duration.ofSeconds(30))
            .slowCallDurationThreshold(Duration.ofMillis(100))
            .ignoreExceptions(IllegalArgumentException.class)
            .build();
    private final BreakerRegistry registry = BreakerRegistry.of(config, Map.of(), nanos::get);
    private final BreakerTransitionHistory history = BreakerTransitionHistory.bind(registry, 3);
    private final BreakerOperations operations = new BreakerOperations(registry, history);

    @Test
    void describesEveryBreakerSortedByName() {
        registry.breaker("wholesaler");
        registry.breaker("payments");

        assertThat(operations.describeAll().breakers())
                .extracting(BreakerDescriptor::name)
                .containsExactly("payments", "wholesaler");
    }

    @Test
    void describesAClosedBreakerWithItsNumbersAndEffectiveConfig() {
        CircuitBreaker breaker = registry.breaker("wholesaler");
        succeed(breaker);
        fail(breaker);

        BreakerDescriptor descriptor = operations.describe("wholesaler").orElseThrow();

        assertThat(descriptor.state()).isEqualTo(State.CLOSED);
        assertThat(descriptor.callsInWindow()).isEqualTo(2);
        assertThat(descriptor.failedCalls()).isEqualTo(1);
        assertThat(descriptor.failureRate()).isEqualTo(-1f);
        assertThat(descriptor.openedAt()).isNull();
        assertThat(descriptor.nextProbeAt()).isNull();
        assertThat(descriptor.lastFailureType()).isEqualTo(IOException.class.getName());
        assertThat(descriptor.config().slidingWindowSize()).isEqualTo(4);
        assertThat(descriptor.config().waitDurationInOpenState()).isEqualTo(Duration.ofSeconds(30));
        assertThat(descriptor.config().slowCallDurationThreshold()).isEqualTo(Duration.ofMillis(100));
        assertThat(descriptor.config().ignoreExceptions()).containsExactly(IllegalArgumentException.class.getName());
        assertThat(descriptor.config().recordFailurePredicate()).isFalse();
    }

    @Test
    void anOpenBreakerWhoseWaitElapsedShowsWhenTheProbeBecameAllowedAtEveryRead() {
        CircuitBreaker breaker = registry.breaker("wholesaler");
        trip(breaker);
        nanos.addAndGet(Duration.ofSeconds(45).toNanos());

        BreakerDescriptor first = operations.describe("wholesaler").orElseThrow();
        nanos.addAndGet(Duration.ofSeconds(7).toNanos());
        BreakerDescriptor later = operations.describe("wholesaler").orElseThrow();

        assertThat(first.state()).isEqualTo(State.OPEN);
        assertThat(first.nextProbeAt()).isEqualTo(first.openedAt().plusSeconds(30));
        assertThat(later.nextProbeAt()).isEqualTo(first.nextProbeAt());
    }

    @Test
    void describesAnOpenBreakerWithWhenItOpenedAndWhenTheNextProbeIsDue() {
        CircuitBreaker breaker = registry.breaker("wholesaler");
        trip(breaker);
        nanos.addAndGet(Duration.ofSeconds(10).toNanos());
        breaker.tryAcquirePermit();

        BreakerDescriptor descriptor = operations.describe("wholesaler").orElseThrow();

        assertThat(descriptor.state()).isEqualTo(State.OPEN);
        assertThat(descriptor.failureRate()).isEqualTo(75f);
        assertThat(descriptor.rejectedCalls()).isEqualTo(1);
        assertThat(descriptor.openedAt()).isNotNull();
        assertThat(descriptor.nextProbeAt()).isEqualTo(descriptor.openedAt().plusSeconds(30));
        assertThat(descriptor.transitions()).singleElement().satisfies(transition -> {
            assertThat(transition.from()).isEqualTo(State.CLOSED);
            assertThat(transition.to()).isEqualTo(State.OPEN);
            assertThat(transition.cause()).isEqualTo(TransitionCause.FAILURE_RATE);
        });
    }

    @Test
    void keepsOnlyTheLastTransitionsNewestFirst() {
        CircuitBreaker breaker = registry.breaker("wholesaler");
        breaker.forceOpen();
        breaker.forceClosed();
        breaker.release();
        breaker.forceOpen();

        assertThat(operations.describe("wholesaler").orElseThrow().transitions())
                .extracting(TransitionDescriptor::to)
                .containsExactly(State.FORCED_OPEN, State.CLOSED, State.FORCED_CLOSED);
    }

    @Test
    void anUnknownNameDescribesNothing() {
        assertThat(operations.describe("nobody")).isEmpty();
    }

    @Test
    void forcingOpenRejectsEveryCallAndIsRecordedAsAnOperatorTransition() {
        CircuitBreaker breaker = registry.breaker("wholesaler");

        ChangeResult result = operations.change("wholesaler", "OPEN", "alice");

        assertThat(result)
                .isEqualTo(new ChangeResult.Applied(new StateChangeDescriptor(
                        "wholesaler", RequestedState.OPEN, State.CLOSED, State.FORCED_OPEN, true, null, "alice")));
        assertThat(breaker.tryAcquirePermit()).isEqualTo(CircuitBreaker.NO_PERMIT);
        assertThat(operations.describe("wholesaler").orElseThrow().transitions())
                .extracting(TransitionDescriptor::cause)
                .containsExactly(TransitionCause.OPERATOR);
    }

    @Test
    void forcingClosedLetsEveryCallThroughAndNeverTrips() {
        CircuitBreaker breaker = registry.breaker("wholesaler");
        trip(breaker);

        operations.change("wholesaler", "closed", null);
        for (int i = 0; i < 10; i++) {
            fail(breaker);
        }

        assertThat(breaker.getState()).isEqualTo(State.FORCED_CLOSED);
        long permit = breaker.tryAcquirePermit();
        assertThat(permit).isNotEqualTo(CircuitBreaker.NO_PERMIT);
    }

    @Test
    void autoReleasesAForcedBreakerToClosed() {
        CircuitBreaker breaker = registry.breaker("wholesaler");
        breaker.forceOpen();

        ChangeResult result = operations.change("wholesaler", " Auto ", null);

        assertThat(result).isInstanceOfSatisfying(ChangeResult.Applied.class, applied -> {
            assertThat(applied.change().previousState()).isEqualTo(State.FORCED_OPEN);
            assertThat(applied.change().state()).isEqualTo(State.CLOSED);
        });
        long permit = breaker.tryAcquirePermit();
        assertThat(permit).isNotEqualTo(CircuitBreaker.NO_PERMIT);
    }

    @Test
    void askingForTheStateABreakerIsAlreadyInChangesNothing() {
        registry.breaker("wholesaler").forceOpen();

        ChangeResult result = operations.change("wholesaler", "OPEN", null);

        assertThat(result)
                .isInstanceOfSatisfying(
                        ChangeResult.Applied.class,
                        applied -> assertThat(applied.change().changed()).isFalse());
    }

    @Test
    void aWriteToAnUnknownNameIsNotFoundAndCreatesNoBreaker() {
        ChangeResult result = operations.change("nobody", "OPEN", null);

        assertThat(result).isInstanceOfSatisfying(ChangeResult.Refused.class, refused -> {
            assertThat(refused.error().status()).isEqualTo(404);
            assertThat(refused.error().message()).contains("'nobody'");
        });
        assertThat(registry.find("nobody")).isEmpty();
    }

    @Test
    void aMissingStateIsABadRequestNamingTheAllowedValues() {
        registry.breaker("wholesaler");

        ChangeResult result = operations.change("wholesaler", null, null);

        assertThat(result).isInstanceOfSatisfying(ChangeResult.Refused.class, refused -> {
            assertThat(refused.error().status()).isEqualTo(400);
            assertThat(refused.error().message()).isEqualTo("state must be one of OPEN, CLOSED, AUTO; it is missing");
            assertThat(refused.error().allowedStates())
                    .containsExactly(RequestedState.OPEN, RequestedState.CLOSED, RequestedState.AUTO);
        });
    }

    @Test
    void anUnknownStateIsABadRequestAndLeavesTheBreakerAlone() {
        CircuitBreaker breaker = registry.breaker("wholesaler");

        ChangeResult result = operations.change("wholesaler", "HALF_OPEN", null);

        assertThat(result).isInstanceOfSatisfying(ChangeResult.Refused.class, refused -> {
            assertThat(refused.error().status()).isEqualTo(400);
            assertThat(refused.error().message()).isEqualTo("state must be one of OPEN, CLOSED, AUTO; was 'HALF_OPEN'");
        });
        assertThat(breaker.getState()).isEqualTo(State.CLOSED);
    }

    @Test
    void concurrentChangesAnswerOneSnapshotEachAndKeepTheHistoryInOrder() throws Exception {
        BreakerTransitionHistory longHistory = BreakerTransitionHistory.bind(registry, 64);
        BreakerOperations concurrent = new BreakerOperations(registry, longHistory);
        registry.breaker("contended");
        int threads = 8;
        int rounds = 200;
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(threads);
        java.util.concurrent.CountDownLatch start = new java.util.concurrent.CountDownLatch(1);
        List<java.util.concurrent.Future<List<StateChangeDescriptor>>> results = new java.util.ArrayList<>();
        for (int t = 0; t < threads; t++) {
            String[] requests = t % 2 == 0 ? new String[] {"OPEN", "AUTO"} : new String[] {"CLOSED", "AUTO"};
            results.add(pool.submit(() -> {
                start.await();
                List<StateChangeDescriptor> answers = new java.util.ArrayList<>();
                for (int i = 0; i < rounds; i++) {
                    BreakerOperations.ChangeResult result = concurrent.change("contended", requests[i % 2], "op");
                    answers.add(((BreakerOperations.ChangeResult.Applied) result).change());
                }
                return answers;
            }));
        }
        start.countDown();
        try {
            for (java.util.concurrent.Future<List<StateChangeDescriptor>> result : results) {
                for (StateChangeDescriptor answer : result.get()) {
                    State target = switch (answer.requested()) {
                        case OPEN -> State.FORCED_OPEN;
                        case CLOSED -> State.FORCED_CLOSED;
                        case AUTO -> State.CLOSED;
                    };
                    if (answer.changed()) {
                        assertThat(answer.previousState()).as(answer.toString()).isNotEqualTo(answer.state());
                        assertThat(answer.state()).as(answer.toString()).isEqualTo(target);
                    } else {
                        assertThat(answer.previousState()).as(answer.toString()).isEqualTo(answer.state());
                    }
                }
            }
        } finally {
            pool.shutdownNow();
        }
        List<TransitionDescriptor> newestFirst = longHistory.recent("contended");
        assertThat(newestFirst).hasSizeGreaterThan(10);
        for (int i = 0; i + 1 < newestFirst.size(); i++) {
            assertThat(newestFirst.get(i).from())
                    .as("transition %d follows the one before it", i)
                    .isEqualTo(newestFirst.get(i + 1).to());
        }
    }

    private void trip(CircuitBreaker breaker) {
        succeed(breaker);
        fail(breaker);
        fail(breaker);
        fail(breaker);
        assertThat(breaker.getState()).isEqualTo(State.OPEN);
    }

    private static void succeed(CircuitBreaker breaker) {
        long permit = breaker.tryAcquirePermit();
        assertThat(permit).isNotEqualTo(CircuitBreaker.NO_PERMIT);
        breaker.onSuccess(permit, Duration.ofMillis(5).toNanos());
    }

    private static void fail(CircuitBreaker breaker) {
        long permit = breaker.tryAcquirePermit();
        assertThat(permit).isNotEqualTo(CircuitBreaker.NO_PERMIT);
        breaker.onError(permit, Duration.ofMillis(5).toNanos(), new IOException("boom"));
    }
}
