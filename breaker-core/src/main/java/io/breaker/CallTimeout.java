package io.breaker;

import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/*
 * How a timed call runs. The work runs on a thread of the executor (by default a new virtual thread,
 * see VirtualThreads); the calling thread waits for it with FutureTask.get(timeout). No timer exists:
 * the waiting caller is the clock. When the wait runs out, FutureTask.cancel(true) decides, in one
 * compare-and-set on the task's state, between "cancelled" (the caller gets CallTimeoutException and
 * the work's thread is interrupted) and "already done" (the caller gets the work's own outcome): the
 * two can never both happen.
 *
 * Invariants:
 * - The outcome of a timed call is reported by the calling thread only, once: the work's thread never
 *   touches the breaker. A call cancelled by its timeout may still end later; that late result or
 *   exception stays in the cancelled FutureTask, which nobody reads, so it is never recorded a second
 *   time and never gives back a half-open probe permit the timeout already used to reopen.
 * - A breaker without a call timeout never meets this class: the integrations choose the timed path
 *   once per method or per breaker, and CircuitBreaker.execute, call and run never time out.
 * - Context held in thread locals does not follow the work by itself: an integration passes an
 *   executor that carries it (Spring's TaskDecorator, Micrometer's ContextSnapshot).
 */

/**
 * A breaker's call timeout ({@link BreakerConfig#CALL_TIMEOUT}) put to work: runs a call on another
 * thread and gives it up when it runs longer than the timeout. The caller then gets a
 * {@link CallTimeoutException}, which the breaker records as a failure, and the call's thread is
 * interrupted. The breaker starts no thread itself: the call runs on the {@link Executor} given here,
 * or on a new virtual thread per call on Java 21 and later.
 *
 * <pre>{@code
 * CallTimeout timeout = CallTimeout.of(breaker, null);  // the breaker's call timeout, on virtual threads
 * Integer days = timeout.execute(breaker, () -> wholesaler.deliveryDays(isbn));
 * }</pre>
 *
 * <p>An interrupt ends only what listens to it: a socket read on a virtual thread, a sleep, a lock
 * taken interruptibly, NIO channels. A classic socket read on a platform thread (Java 17, an
 * executor's pool) does not; that thread stays busy until the read's own timeout, although the caller
 * is answered at the call timeout.
 */
public final class CallTimeout {

    private final String breakerName;
    private final Duration timeout;
    private final long timeoutNanos;
    private final Executor executor;

    private CallTimeout(String breakerName, Duration timeout, Executor executor) {
        this.breakerName = Objects.requireNonNull(breakerName, "breakerName");
        this.timeout = BreakerConfig.CALL_TIMEOUT.check(Objects.requireNonNull(timeout, "timeout"));
        this.timeoutNanos = timeout.toNanos();
        this.executor = Objects.requireNonNull(executor, "executor");
    }

    /**
     * A timeout that runs calls on {@code executor} (its tasks should run at once: a task that waits
     * in a queue waits against the timeout).
     *
     * @param breakerName the breaker the calls go through, for {@link CallTimeoutException}
     * @throws InvalidSettingException if {@code timeout} is not a positive duration
     */
    public static CallTimeout of(String breakerName, Duration timeout, Executor executor) {
        return new CallTimeout(breakerName, timeout, executor);
    }

    /**
     * A timeout that runs each call on a new virtual thread.
     *
     * @throws UnsupportedOperationException before Java 21 (see {@link #virtualThreadsAvailable()})
     */
    public static CallTimeout onVirtualThreads(String breakerName, Duration timeout) {
        return new CallTimeout(breakerName, timeout, VirtualThreads.perTask(breakerName));
    }

    /**
     * The call timeout of {@code breaker}'s settings, or {@code null} when it has none; its calls run on
     * {@code executor}, or on virtual threads when {@code executor} is {@code null}.
     *
     * @throws UnsupportedOperationException when {@code executor} is {@code null} before Java 21
     */
    public static @Nullable CallTimeout of(CircuitBreaker breaker, @Nullable Executor executor) {
        Duration timeout = breaker.getConfig().getCallTimeout();
        if (timeout == null) {
            return null;
        }
        return executor == null
                ? onVirtualThreads(breaker.getName(), timeout)
                : of(breaker.getName(), timeout, executor);
    }

    /**
     * An executor that starts a new virtual thread per task, named {@code breaker-timeout-<name>-<n>}:
     * what {@link #onVirtualThreads} runs calls on, for an integration that wraps tasks first.
     *
     * @throws UnsupportedOperationException before Java 21 (see {@link #virtualThreadsAvailable()})
     */
    public static Executor virtualThreads(String breakerName) {
        return VirtualThreads.perTask(Objects.requireNonNull(breakerName, "breakerName"));
    }

    /** Whether this JVM has virtual threads (Java 21 and later), which {@link #onVirtualThreads} needs. */
    public static boolean virtualThreadsAvailable() {
        return VirtualThreads.available();
    }

    /** How long a call may run. */
    public Duration timeout() {
        return timeout;
    }

    /**
     * Runs {@code work} on this timeout's executor and waits for it at most the timeout. Records
     * nothing: an integration that reports outcomes itself uses this.
     *
     * @return what {@code work} returned
     * @throws CallTimeoutException    if {@code work} did not end in time (it was cancelled and its
     *                                 thread interrupted)
     * @throws InterruptedException    if the calling thread was interrupted while it waited ({@code work}
     *                                 is cancelled too, and the calling thread keeps its interrupt flag)
     * @throws Exception               what {@code work} threw, unchanged (an error or a checked exception too)
     */
    public <T extends @Nullable Object> T run(Callable<T> work) throws Exception {
        FutureTask<T> task = new FutureTask<>(work);
        executor.execute(task);
        try {
            return task.get(timeoutNanos, TimeUnit.NANOSECONDS);
        } catch (ExecutionException failed) {
            throw CallTimeout.<Exception>sneaky(failed.getCause());
        } catch (TimeoutException late) {
            if (task.cancel(true)) {
                throw new CallTimeoutException(breakerName, timeout);
            }
            return outcome(task); // it ended as the wait ran out: its own outcome stands
        } catch (InterruptedException interrupted) {
            task.cancel(true);
            Thread.currentThread().interrupt();
            throw interrupted;
        }
    }

    /**
     * Runs {@code work} through {@code breaker} with this timeout: the permit, the outcome and its
     * duration as {@link CircuitBreaker#call} records them, a {@link CallTimeoutException} as a
     * failure. A caller interrupted while it waits records nothing and gives the permit back.
     *
     * @throws CircuitOpenException if the breaker rejects the call ({@code work} does not run)
     * @see #run(Callable)
     */
    public <T extends @Nullable Object> T call(CircuitBreaker breaker, Callable<T> work) throws Exception {
        long permit = breaker.acquirePermit();
        NanoClock clock = breaker.clock();
        long start = clock.nanoTime();
        T result;
        try {
            result = run(work);
        } catch (Throwable error) {
            if (callerInterrupted(error)) {
                breaker.releasePermit(permit); // the caller gave up: the call counts neither way
            } else {
                breaker.onErrorBetween(permit, start, clock.nanoTime(), error);
            }
            throw error;
        }
        breaker.onSuccessBetween(permit, start, clock.nanoTime(), CallOutcome.SLOW_SUCCESS);
        return result;
    }

    /**
     * {@link #call(CircuitBreaker, Callable)} for a supplier. A caller interrupted while it waits gets a
     * {@link CancellationException} and keeps its interrupt flag.
     */
    public <T extends @Nullable Object> T execute(CircuitBreaker breaker, Supplier<T> work) {
        try {
            return call(breaker, work::get);
        } catch (InterruptedException interrupted) {
            CancellationException cancelled =
                    new CancellationException("interrupted while waiting for a call through '" + breakerName + "'");
            cancelled.initCause(interrupted);
            throw cancelled;
        } catch (Exception error) {
            throw CallTimeout.<RuntimeException>sneaky(error); // unchecked: a supplier throws no other
        }
    }

    /**
     * A future that completes as {@code stage} does, or fails with a {@link CallTimeoutException} when
     * {@code stage} has not completed within the timeout; {@code stage} is then cancelled if it is a
     * {@link Future}. The timeout is {@link CompletableFuture#orTimeout}'s (the JDK's one delay
     * scheduler), dropped as soon as {@code stage} completes; no thread of the executor is used.
     */
    public <T extends @Nullable Object> CompletableFuture<T> within(CompletionStage<T> stage) {
        CompletableFuture<T> result = new CompletableFuture<>();
        CompletableFuture<@Nullable Void> timer = new CompletableFuture<>();
        timer.orTimeout(timeoutNanos, TimeUnit.NANOSECONDS).whenComplete((ignored, expired) -> {
            if (expired != null && result.completeExceptionally(new CallTimeoutException(breakerName, timeout))) {
                if (stage instanceof Future<?> future) {
                    future.cancel(true);
                }
            }
        });
        stage.whenComplete((value, error) -> {
            timer.complete(null); // removes the scheduled timeout
            if (error == null) {
                result.complete(value);
            } else {
                result.completeExceptionally(error);
            }
        });
        return result;
    }

    /**
     * Whether {@code error}, thrown by {@link #run}, says that the calling thread was interrupted while
     * it waited ({@code run} then keeps the caller's interrupt flag set), rather than that the call
     * itself threw an {@link InterruptedException}.
     */
    public static boolean callerInterrupted(Throwable error) {
        return error instanceof InterruptedException && Thread.currentThread().isInterrupted();
    }

    private static <T extends @Nullable Object> T outcome(FutureTask<T> done) throws Exception {
        try {
            return done.get();
        } catch (ExecutionException failed) {
            throw CallTimeout.<Exception>sneaky(failed.getCause());
        }
    }

    @SuppressWarnings("unchecked")
    private static <E extends Throwable> E sneaky(Throwable error) throws E {
        throw (E) error;
    }

    @Override
    public String toString() {
        return "CallTimeout{breaker=" + breakerName + ", timeout=" + timeout + "}";
    }
}
