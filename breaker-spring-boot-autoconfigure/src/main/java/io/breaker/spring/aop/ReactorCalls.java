package io.breaker.spring.aop;

import io.breaker.CircuitBreaker;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;
import org.springframework.aop.ProxyMethodInvocation;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Methods returning Reactor's {@code Mono} or {@code Flux}. Loaded only when reactor-core is on the
 * classpath.
 *
 * <p>The rule is the synchronous one, applied per subscription: each subscription takes a permit;
 * a rejected one gets the fallback's publisher (or the rejection as an error) and the method does
 * not run; a permitted one runs the method (which builds the publisher) and subscribes to what it
 * returned. An exception the method throws while building is that call's error: classified,
 * recorded, and answered by the fallback if it counted as a failure.
 *
 * <p>Outcomes, timed from the subscription: a Mono counts when it emits or completes empty; a Flux
 * when it completes, or when it is cancelled after at least one element ({@code next()},
 * {@code take(n)}, {@code blockFirst()}); an error is an error. A cancel before any element counts
 * neither way and gives a half-open permit back, unless the call already ran past the slow-call
 * threshold: then it counts as a slow call, so a dependency that hangs behind a caller's own
 * {@code timeout()} still trips the breaker.
 */
final class ReactorCalls {

    private ReactorCalls() {}

    /** The call for a Reactor return type, or {@code null} if {@code returnType} is not Mono or Flux. */
    static @Nullable ProtectedCall forReturnType(
            Class<?> returnType, CircuitBreaker breaker, @Nullable Fallback fallback) {
        if (returnType == Mono.class) {
            return new MonoCall(breaker, fallback);
        }
        if (returnType == Flux.class) {
            return new FluxCall(breaker, fallback);
        }
        return null;
    }

    /**
     * Runs the method once more: each subscription is a new call. Spring's own invocations can be
     * cloned and proceeded any number of times; any other runs once.
     */
    private static @Nullable Object proceed(MethodInvocation invocation) throws Throwable {
        return invocation instanceof ProxyMethodInvocation proxied
                ? proxied.invocableClone().proceed()
                : invocation.proceed();
    }

    static final class MonoCall extends ProtectedCall {

        MonoCall(CircuitBreaker breaker, @Nullable Fallback fallback) {
            super(breaker, fallback);
        }

        @Override
        Object invoke(MethodInvocation invocation) {
            Object target = invocation.getThis();
            Object[] arguments = invocation.getArguments();
            return Mono.defer(() -> {
                long permit = acquire();
                if (permit <= CircuitBreaker.NO_PERMIT) {
                    return mono(() -> rejected(target, arguments, permit));
                }
                Outcome outcome = new Outcome(this, permit, start());
                Mono<Object> source;
                try {
                    @SuppressWarnings("unchecked")
                    Mono<Object> built = (Mono<Object>) proceed(invocation);
                    source = built;
                } catch (Throwable thrown) {
                    outcome.error(thrown);
                    return outcome.recovers(thrown)
                            ? mono(() -> recover(target, arguments, thrown, true))
                            : Mono.error(thrown);
                }
                if (source == null) {
                    outcome.success();
                    return Mono.empty();
                }
                Mono<Object> guarded = source.doOnSuccess(value -> outcome.success())
                        .doOnError(outcome::error)
                        .doOnCancel(outcome::cancel);
                return fallback == null
                        ? guarded
                        : guarded.onErrorResume(
                                outcome::recovers, error -> mono(() -> recover(target, arguments, error, true)));
            });
        }
    }

    static final class FluxCall extends ProtectedCall {

        FluxCall(CircuitBreaker breaker, @Nullable Fallback fallback) {
            super(breaker, fallback);
        }

        @Override
        Object invoke(MethodInvocation invocation) {
            Object target = invocation.getThis();
            Object[] arguments = invocation.getArguments();
            return Flux.defer(() -> {
                long permit = acquire();
                if (permit <= CircuitBreaker.NO_PERMIT) {
                    return flux(() -> rejected(target, arguments, permit));
                }
                Outcome outcome = new Outcome(this, permit, start());
                Flux<Object> source;
                try {
                    @SuppressWarnings("unchecked")
                    Flux<Object> built = (Flux<Object>) proceed(invocation);
                    source = built;
                } catch (Throwable thrown) {
                    outcome.error(thrown);
                    return outcome.recovers(thrown)
                            ? flux(() -> recover(target, arguments, thrown, true))
                            : Flux.error(thrown);
                }
                if (source == null) {
                    outcome.success();
                    return Flux.empty();
                }
                Flux<Object> guarded = source.doOnNext(value -> outcome.element())
                        .doOnComplete(outcome::success)
                        .doOnError(outcome::error)
                        .doOnCancel(outcome::cancel);
                return fallback == null
                        ? guarded
                        : guarded.onErrorResume(
                                outcome::recovers, error -> flux(() -> recover(target, arguments, error, true)));
            });
        }
    }

    /** Runs a step that returns a Mono (a fallback's answer), turning a thrown exception into an error signal. */
    @SuppressWarnings("unchecked")
    private static Mono<Object> mono(FallbackStep step) {
        try {
            Object answer = step.run();
            return answer == null ? Mono.empty() : (Mono<Object>) answer;
        } catch (Throwable thrown) {
            return Mono.error(thrown);
        }
    }

    /** Runs a step that returns a Flux (a fallback's answer), turning a thrown exception into an error signal. */
    @SuppressWarnings("unchecked")
    private static Flux<Object> flux(FallbackStep step) {
        try {
            Object answer = step.run();
            return answer == null ? Flux.empty() : (Flux<Object>) answer;
        } catch (Throwable thrown) {
            return Flux.error(thrown);
        }
    }

    @FunctionalInterface
    private interface FallbackStep {
        @Nullable
        Object run() throws Throwable;
    }
}
