package io.breaker;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A call timeout gives a call up, counts it as a failure once, interrupts the call's thread, and never
 * lets the call's late outcome count again. Runs on an executor of the test's own (the way Java 17
 * applications run timed calls); the timeouts are short, and what they wait for never arrives, so no
 * assertion depends on how fast the machine is.
 */
class CallTimeoutTest {

    private static final Duration TIMEOUT = Duration.ofMillis(50);

    private final ExecutorService pool = Executors.newCachedThreadPool();
    private final FakeClock clock = new FakeClock();
    private final RecordingListener listener = new RecordingListener();

    @AfterEach
    void stopPool() {
        pool.shutdownNow();
    }

    private CircuitBreaker breaker(BreakerConfig.Builder config) {
        CircuitBreaker breaker =
                CircuitBreaker.of("wholesaler", config.callTimeout(TIMEOUT).build(), clock);
        breaker.addListener(listener);
        return breaker;
    }

    @Test
    void aCallPastItsTimeoutIsAFailureAndItsThreadIsInterrupted() throws Exception {
        CircuitBreaker breaker = breaker(Breakers.smallWindow());
        CallTimeout timeout = CallTimeout.of(breaker, pool);
        CountDownLatch interrupted = new CountDownLatch(1);

        assertThatThrownBy(() -> timeout.call(breaker, () -> {
                    try {
                        new CountDownLatch(1).await(); // a dependency that never answers
                    } catch (InterruptedException expected) {
                        interrupted.countDown();
                    }
                    return "late";
                }))
                .isInstanceOfSatisfying(CallTimeoutException.class, timedOut -> {
                    assertThat(timedOut.getBreakerName()).isEqualTo("wholesaler");
                    assertThat(timedOut.getTimeout()).isEqualTo(TIMEOUT);
                    assertThat(timedOut.getMessage()).contains("'wholesaler'").contains("50 ms");
                });

        assertThat(interrupted.await(10, TimeUnit.SECONDS))
                .as("the call's thread was interrupted")
                .isTrue();
        assertThat(breaker.getMetrics().failedCalls()).isEqualTo(1);
        assertThat(breaker.getLastFailureType()).isEqualTo(CallTimeoutException.class.getName());
        assertThat(listener.outcomes).containsExactly(CallOutcome.FAILURE);
    }

    @Test
    void aCallWithinItsTimeoutAnswersAndCountsAsASuccess() throws Exception {
        CircuitBreaker breaker = breaker(Breakers.smallWindow());
        CallTimeout timeout = CallTimeout.of("wholesaler", Duration.ofSeconds(30), pool);

        assertThat(timeout.call(breaker, () -> 5)).isEqualTo(5);
        assertThat(timeout.execute(breaker, () -> 6)).isEqualTo(6);
        assertThat(listener.outcomes).containsExactly(CallOutcome.SUCCESS, CallOutcome.SUCCESS);
    }

    @Test
    void whatTheCallThrowsReachesTheCallerUnchanged() {
        CircuitBreaker breaker = breaker(Breakers.smallWindow());
        CallTimeout timeout = CallTimeout.of("wholesaler", Duration.ofSeconds(30), pool);
        IOException down = new IOException("down");

        assertThatThrownBy(() -> timeout.call(breaker, () -> {
                    throw down;
                }))
                .isSameAs(down);
        assertThatThrownBy(() -> timeout.execute(breaker, () -> {
                    throw new IllegalStateException("bug");
                }))
                .isExactlyInstanceOf(IllegalStateException.class)
                .hasMessage("bug");
        assertThat(listener.outcomes).containsExactly(CallOutcome.FAILURE, CallOutcome.FAILURE);
    }

    @Test
    void aLateResultOfATimedOutProbeCountsNowhere() throws Exception {
        CircuitBreaker breaker = breaker(Breakers.smallWindow());
        Breakers.trip(breaker);
        clock.advance(Breakers.WAIT);
        listener.outcomes.clear();
        CallTimeout timeout = CallTimeout.of(breaker, pool);
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch ended = new CountDownLatch(1);

        assertThatThrownBy(() -> timeout.call(breaker, () -> {
                    try {
                        while (!release.await(10, TimeUnit.SECONDS)) {
                            // ignores interrupts, as a classic socket read does
                        }
                        return "late success";
                    } catch (InterruptedException ignored) {
                        release.await();
                        return "late success";
                    } finally {
                        ended.countDown();
                    }
                }))
                .isInstanceOf(CallTimeoutException.class);
        assertThat(breaker.getState())
                .as("the timed-out probe reopened the breaker")
                .isEqualTo(State.OPEN);

        release.countDown();
        assertThat(ended.await(10, TimeUnit.SECONDS)).isTrue();
        clock.advance(Breakers.WAIT);
        long permit = breaker.tryAcquirePermit();

        assertThat(permit)
                .as("a new probe: the late success neither closed the breaker nor took a permit")
                .isNotEqualTo(CircuitBreaker.NO_PERMIT);
        assertThat(breaker.getState()).isEqualTo(State.HALF_OPEN);
        assertThat(listener.outcomes).containsExactly(CallOutcome.FAILURE);
    }

    @Test
    void aTimeoutCountsEvenWhenRecordExceptionsListsOthersButNotWhenIgnored() {
        CircuitBreaker recorded = breaker(Breakers.smallWindow().recordExceptions(IOException.class));
        assertThatThrownBy(() -> CallTimeout.of(recorded, pool).call(recorded, CallTimeoutTest::neverAnswers))
                .isInstanceOf(CallTimeoutException.class);
        assertThat(recorded.getMetrics().failedCalls()).isEqualTo(1);

        listener.outcomes.clear();
        CircuitBreaker ignoring = breaker(Breakers.smallWindow().ignoreExceptions(CallTimeoutException.class));
        assertThatThrownBy(() -> CallTimeout.of(ignoring, pool).call(ignoring, CallTimeoutTest::neverAnswers))
                .isInstanceOf(CallTimeoutException.class);
        assertThat(ignoring.getMetrics().failedCalls()).isZero();
        assertThat(listener.outcomes).containsExactly(CallOutcome.IGNORED);
    }

    @Test
    void anInterruptedCallerRecordsNothingAndGivesItsProbeBack() throws Exception {
        CircuitBreaker breaker = breaker(Breakers.smallWindow());
        Breakers.trip(breaker);
        clock.advance(Breakers.WAIT);
        listener.outcomes.clear();
        CallTimeout timeout = CallTimeout.of("wholesaler", Duration.ofSeconds(30), pool);
        CountDownLatch started = new CountDownLatch(1);
        AtomicBoolean workInterrupted = new AtomicBoolean();
        CompletableFuture<Throwable> caller = new CompletableFuture<>();
        Thread waiting = new Thread(() -> {
            try {
                timeout.call(breaker, () -> {
                    started.countDown();
                    try {
                        new CountDownLatch(1).await();
                    } catch (InterruptedException expected) {
                        workInterrupted.set(true);
                    }
                    return "never";
                });
            } catch (Throwable error) {
                caller.complete(error);
            }
            caller.complete(null);
        });
        waiting.start();
        assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
        waiting.interrupt();

        assertThat(caller.get(10, TimeUnit.SECONDS)).isInstanceOf(InterruptedException.class);
        assertThat(listener.outcomes).isEmpty();
        assertThat(breaker.tryAcquirePermit()).as("the probe permit came back").isNotEqualTo(CircuitBreaker.NO_PERMIT);
    }

    @Test
    void aStageThatDoesNotCompleteInTimeFailsWithTheTimeoutAndIsCancelled() throws InterruptedException {
        CallTimeout timeout = CallTimeout.of("wholesaler", TIMEOUT, pool);
        CompletableFuture<String> never = new CompletableFuture<>();
        CountDownLatch cancelled = new CountDownLatch(1);
        never.whenComplete((value, error) -> {
            if (never.isCancelled()) {
                cancelled.countDown();
            }
        });

        CompletableFuture<String> timed = timeout.within(never);

        assertThatThrownBy(() -> timed.get(10, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(CallTimeoutException.class);
        // The timer's thread completes the caller's future first, then cancels the stage: a caller woken
        // by the timeout may look before the cancel has run.
        assertThat(cancelled.await(10, TimeUnit.SECONDS))
                .as("the stage was cancelled")
                .isTrue();
    }

    @Test
    void aStageThatCompletesInTimeKeepsItsOutcome() throws Exception {
        CallTimeout timeout = CallTimeout.of("wholesaler", Duration.ofSeconds(30), pool);

        assertThat(timeout.within(CompletableFuture.completedFuture("3")).get()).isEqualTo("3");
        assertThatThrownBy(() -> timeout.within(CompletableFuture.failedFuture(new IOException("down")))
                        .get())
                .hasCauseInstanceOf(IOException.class);
    }

    @Test
    void aBreakerWithoutCallTimeoutHasNone() {
        CircuitBreaker breaker = CircuitBreaker.of("plain", BreakerConfig.ofDefaults());

        assertThat(BreakerConfig.ofDefaults().getCallTimeout()).isNull();
        assertThat(CallTimeout.of(breaker, pool)).isNull();
    }

    @Test
    void theCallTimeoutIsFixedWhenTheBreakerIsBuilt() {
        CircuitBreaker breaker = breaker(Breakers.smallWindow());

        assertThatThrownBy(() -> breaker.reconfigure(breaker.getConfig().toBuilder()
                        .callTimeout(Duration.ofSeconds(5))
                        .build()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("callTimeout cannot change on a running breaker");
        breaker.reconfigure(
                breaker.getConfig().toBuilder().failureRateThreshold(20).build());
        assertThat(breaker.getConfig().getCallTimeout()).isEqualTo(TIMEOUT);
    }

    @Test
    void aTimeoutIsAPositiveDuration() {
        assertThatThrownBy(() -> BreakerConfig.builder().callTimeout(Duration.ZERO))
                .isInstanceOf(InvalidSettingException.class)
                .hasMessage("callTimeout must be a positive duration of at most 106751d (about 292 years), or none"
                        + " for no timeout, was PT0S");
        assertThatThrownBy(() -> CallTimeout.of("x", Duration.ofSeconds(-1), pool))
                .isInstanceOf(InvalidSettingException.class);
    }

    @Test
    void withoutVirtualThreadsTheDefaultExecutorIsRefused() {
        assumeTrue(Runtime.version().feature() < 21, "virtual threads exist on this JVM");

        assertThat(CallTimeout.virtualThreadsAvailable()).isFalse();
        assertThatThrownBy(() -> CallTimeout.onVirtualThreads("wholesaler", TIMEOUT))
                .isInstanceOf(UnsupportedOperationException.class)
                .hasMessageContaining("Java 21");
    }

    private static String neverAnswers() throws InterruptedException {
        new CountDownLatch(1).await();
        return "never";
    }
}
