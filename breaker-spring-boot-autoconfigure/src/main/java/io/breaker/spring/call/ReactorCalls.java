package io.breaker.spring.call;

import io.breaker.CallTimeoutException;
import io.breaker.CircuitBreaker;
import io.breaker.Faults;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import java.time.Duration;

/**
 * Calls whose result is Reactor's {@code Mono} or {@code Flux}, for every integration. Loaded only
 * when reactor-core is on the classpath.
 *
 * <p>The rule is the synchronous one, applied per subscription: each subscription takes a permit;
 * a rejected one gets the fallback's publisher (or the rejection as an error) and the call does not
 * run; a permitted one builds the publisher and subscribes to it. An exception thrown while building
 * is that call's error: classified, recorded, and answered by the fallback if it counted as a failure.
 *
 * <p>Outcomes, timed from the subscription: a Mono counts when it emits or completes empty; a Flux
 * when it completes, or when it is cancelled after at least one element ({@code next()},
 * {@code take(n)}, {@code blockFirst()}); an error is an error. A cancel before any element counts
 * neither way and gives a half-open permit back, unless the call already ran past the slow-call
 * threshold: then it counts as a slow call, so a dependency that hangs behind a caller's own
 * {@code timeout()} still trips the breaker.
 *
 * <p>A breaker with faults ({@link Faults}) delays or fails a permitted call before its publisher is
 * built, without blocking; the call's outcome is then recorded as any other.
 *
 * <p>With {@code record-result}, a Mono's element decides: one the rule counts is a failure (an empty
 * completion is a success). A Flux is one call with one outcome: each element is checked as it
 * passes, and the first that counts makes the call a failure; later elements and the completion do
 * not count again. The elements reach the subscriber unchanged either way.
 */
public final class ReactorCalls {

    private ReactorCalls() {}

    /**
     * What one kind of call does at each step; {@code C} is what a call carries (a method invocation, a
     * publisher and its fallback), so that no step allocates a closure.
     */
    public interface Steps<C> {

        /** Builds the publisher (a {@code Mono} for {@link #mono}, a {@code Flux} for {@link #flux}), or {@code null}. */
        @Nullable
        Object build(C context) throws Throwable;

        /** The answer to a rejection from {@link BreakerCall#acquire}: the fallback's publisher, or the rejection thrown. */
        @Nullable
        Object rejected(C context, long answer) throws Throwable;

        /** The fallback's publisher for a failure it serves. */
        @Nullable
        Object recover(C context, Throwable error) throws Throwable;
    }

    /** A Mono that runs {@code context} through {@code call}'s breaker at each subscription. */
    public static <C> Mono<Object> mono(BreakerCall call, Steps<C> steps, C context) {
        return Mono.defer(() -> {
            long permit = call.acquire();
            if (permit <= CircuitBreaker.NO_PERMIT) {
                return mono(() -> steps.rejected(context, permit));
            }
            BreakerCall.Outcome outcome = new BreakerCall.Outcome(call, permit, call.start());
            Mono<Object> source;
            try {
                Faults faults = call.faults();
                @SuppressWarnings("unchecked")
                Mono<Object> built =
                        faults == null ? (Mono<Object>) steps.build(context) : Faulted.mono(faults, steps, context);
                source = built;
            } catch (Throwable thrown) {
                outcome.error(thrown);
                return outcome.recovers(thrown) ? mono(() -> steps.recover(context, thrown)) : Mono.error(thrown);
            }
            if (source == null) {
                outcome.success();
                return Mono.empty();
            }
            Mono<Object> checked = call.recordResult == null
                    ? source.doOnSuccess(value -> outcome.success())
                    : source.doOnSuccess(outcome::result);
            Mono<Object> guarded = checked.doOnError(outcome::error).doOnCancel(outcome::cancel);
            return call.hasFallback()
                    ? guarded.onErrorResume(outcome::recovers, error -> mono(() -> steps.recover(context, error)))
                    : guarded;
        });
    }

    /** A Flux that runs {@code context} through {@code call}'s breaker at each subscription. */
    public static <C> Flux<Object> flux(BreakerCall call, Steps<C> steps, C context) {
        return Flux.defer(() -> {
            long permit = call.acquire();
            if (permit <= CircuitBreaker.NO_PERMIT) {
                return flux(() -> steps.rejected(context, permit));
            }
            BreakerCall.Outcome outcome = new BreakerCall.Outcome(call, permit, call.start());
            Flux<Object> source;
            try {
                Faults faults = call.faults();
                @SuppressWarnings("unchecked")
                Flux<Object> built =
                        faults == null ? (Flux<Object>) steps.build(context) : Faulted.flux(faults, steps, context);
                source = built;
            } catch (Throwable thrown) {
                outcome.error(thrown);
                return outcome.recovers(thrown) ? flux(() -> steps.recover(context, thrown)) : Flux.error(thrown);
            }
            if (source == null) {
                outcome.success();
                return Flux.empty();
            }
            Flux<Object> checked = call.recordResult == null
                    ? source.doOnNext(value -> outcome.element())
                    : source.doOnNext(outcome::checkedElement);
            Flux<Object> guarded = checked.doOnComplete(outcome::success)
                    .doOnError(outcome::error)
                    .doOnCancel(outcome::cancel);
            return call.hasFallback()
                    ? guarded.onErrorResume(outcome::recovers, error -> flux(() -> steps.recover(context, error)))
                    : guarded;
        });
    }

    /**
     * A call of a breaker with faults ({@link Faults}), drawn at its subscription: an injected latency
     * delays building the publisher on Reactor's parallel scheduler (no thread waits), then an injected
     * failure is signalled instead of building it; what building throws is signalled too.
     */
    private static final class Faulted {

        private Faulted() {}

        static <C> Mono<Object> mono(Faults faults, Steps<C> steps, C context) {
            long delay = faults.latencyNanos();
            Throwable failure = faults.failure();
            Mono<Object> call = Mono.defer(
                    () -> failure != null ? Mono.error(failure) : ReactorCalls.mono(() -> steps.build(context)));
            return delay == 0L ? call : Mono.delay(Duration.ofNanos(delay)).then(call);
        }

        static <C> Flux<Object> flux(Faults faults, Steps<C> steps, C context) {
            long delay = faults.latencyNanos();
            Throwable failure = faults.failure();
            Flux<Object> call = Flux.defer(
                    () -> failure != null ? Flux.error(failure) : ReactorCalls.flux(() -> steps.build(context)));
            return delay == 0L ? call : Mono.delay(Duration.ofNanos(delay)).thenMany(call);
        }
    }

    /** Runs a step that returns a Mono (a fallback's answer), turning a thrown exception into an error signal. */
    @SuppressWarnings("unchecked")
    private static Mono<Object> mono(Step step) {
        try {
            Object answer = step.run();
            return answer == null ? Mono.empty() : (Mono<Object>) answer;
        } catch (Throwable thrown) {
            return Mono.error(thrown);
        }
    }

    /** Runs a step that returns a Flux (a fallback's answer), turning a thrown exception into an error signal. */
    @SuppressWarnings("unchecked")
    private static Flux<Object> flux(Step step) {
        try {
            Object answer = step.run();
            return answer == null ? Flux.empty() : (Flux<Object>) answer;
        } catch (Throwable thrown) {
            return Flux.error(thrown);
        }
    }

    @FunctionalInterface
    private interface Step {
        @Nullable
        Object run() throws Throwable;
    }

    /**
     * {@code built} with the call timeout: a Mono must signal within it; a Flux must signal its first
     * element within it, then each next element (or its completion) within it of the one before, as
     * Reactor's {@code Flux.timeout(Duration)} does. When one does not, the publisher is cancelled
     * and the subscriber gets a {@link CallTimeoutException} instead. Reactor's parallel scheduler
     * keeps the time.
     */
    public static @Nullable Object timed(@Nullable Object built, String breakerName, Duration timeout) {
        if (built instanceof Mono<?> mono) {
            return mono.timeout(timeout, Mono.error(() -> new CallTimeoutException(breakerName, timeout)));
        }
        if (built instanceof Flux<?> flux) {
            return flux.timeout(timeout, Flux.error(() -> new CallTimeoutException(breakerName, timeout)));
        }
        return built;
    }
}
