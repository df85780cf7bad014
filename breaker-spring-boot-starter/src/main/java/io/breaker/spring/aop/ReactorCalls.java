package io.breaker.spring.aop;

import io.breaker.CircuitBreaker;
import org.aopalliance.intercept.MethodInvocation;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Methods returning Reactor's {@code Mono} or {@code Flux}. Loaded only when reactor-core is on the
 * classpath. The method runs when it is called (it assembles the publisher); each subscription then
 * takes a permission, and the outcome is recorded at termination. A cancelled subscription is neither
 * success nor failure and gives a half-open permit back.
 */
final class ReactorCalls {

    private ReactorCalls() {
    }

    /** The call for a Reactor return type, or {@code null} if {@code returnType} is not Mono or Flux. */
    static ProtectedCall forReturnType(Class<?> returnType, CircuitBreaker breaker, Fallback fallback) {
        if (returnType == Mono.class) {
            return new MonoCall(breaker, fallback);
        }
        if (returnType == Flux.class) {
            return new FluxCall(breaker, fallback);
        }
        return null;
    }

    static final class MonoCall extends ProtectedCall {

        MonoCall(CircuitBreaker breaker, Fallback fallback) {
            super(breaker, fallback);
        }

        @Override
        Object invoke(MethodInvocation invocation) throws Throwable {
            Object target = invocation.getThis();
            Object[] arguments = invocation.getArguments();
            @SuppressWarnings("unchecked")
            Mono<Object> source = (Mono<Object>) invocation.proceed();
            if (source == null) {
                return null;
            }
            return Mono.defer(() -> {
                if (!breaker.tryAcquirePermission()) {
                    return mono(() -> rejected(target, arguments));
                }
                Outcome outcome = new Outcome(this, start());
                Mono<Object> guarded = source.doOnSuccess(value -> outcome.success()).doOnError(outcome::error)
                        .doOnCancel(outcome::cancel);
                return fallback == null ? guarded : guarded.onErrorResume(outcome::recovers,
                        error -> mono(() -> recover(target, arguments, error, true)));
            });
        }
    }

    static final class FluxCall extends ProtectedCall {

        FluxCall(CircuitBreaker breaker, Fallback fallback) {
            super(breaker, fallback);
        }

        @Override
        Object invoke(MethodInvocation invocation) throws Throwable {
            Object target = invocation.getThis();
            Object[] arguments = invocation.getArguments();
            @SuppressWarnings("unchecked")
            Flux<Object> source = (Flux<Object>) invocation.proceed();
            if (source == null) {
                return null;
            }
            return Flux.defer(() -> {
                if (!breaker.tryAcquirePermission()) {
                    return flux(() -> rejected(target, arguments));
                }
                Outcome outcome = new Outcome(this, start());
                Flux<Object> guarded = source.doOnComplete(outcome::success).doOnError(outcome::error)
                        .doOnCancel(outcome::cancel);
                return fallback == null ? guarded : guarded.onErrorResume(outcome::recovers,
                        error -> flux(() -> recover(target, arguments, error, true)));
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
        Object run() throws Throwable;
    }
}
