package io.breaker.spring.aop;

import io.breaker.spring.observation.BreakerObservations;
import io.micrometer.observation.Observation;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;

import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A protected call observed as {@code breaker.call}: chosen once, when the method is resolved and the
 * application has an observation registry that is not the no-op one, around the call it would run
 * otherwise, which stays unchanged. The observation is current on every thread where the breaker
 * records the call, so the breaker's listener ({@link BreakerObservations}) gives it its outcome and
 * the transitions it causes as events:
 * <ul>
 *   <li>a plain value: the call runs in the observation's scope, which ends with it;</li>
 *   <li>a {@code CompletionStage}: the call starts in the scope, and the method's future is handed on
 *       through a future of its own completed in the scope (a cancel of that one cancels the
 *       method's); the observation stops when both that future and the one the caller gets have
 *       completed;</li>
 *   <li>a {@code Mono} or {@code Flux} (and a Kotlin {@code suspend fun}, which Spring runs as one):
 *       one observation per subscription, subscribed and cancelled in its scope, with the method's
 *       signals delivered in it ({@link ObservedPublishers}).</li>
 * </ul>
 */
final class ObservedCall extends ProtectedCall {

    private final ProtectedCall delegate;
    private final BreakerObservations observations;
    private final Kind kind;

    /** What the method returns, as far as its observation is concerned. */
    enum Kind {
        /** A value, or nothing: the outcome is known when the method returns. */
        VALUE,
        /** A {@code CompletionStage} or {@code CompletableFuture}. */
        STAGE,
        /** A {@code Mono} or {@code Flux}, or a suspend fun (which Spring runs as one). */
        PUBLISHER
    }

    ObservedCall(ProtectedCall delegate, BreakerObservations observations, Kind kind) {
        super(delegate.breaker(), delegate.fallback);
        this.delegate = delegate;
        this.observations = observations;
        this.kind = kind;
    }

    @Override
    @Nullable
    Object invoke(MethodInvocation invocation) throws Throwable {
        if (kind == Kind.PUBLISHER) {
            return ObservedPublishers.observe(
                    delegate.invoke(ObservedPublishers.scoped(invocation, observations)), breaker, observations);
        }
        if (kind == Kind.STAGE) {
            return invokeStage(invocation);
        }
        Observation observation = observations.startCall(breaker, null);
        try (Observation.Scope scope = observation.openScope()) {
            return delegate.invoke(invocation);
        } catch (Throwable error) {
            observation.error(error);
            throw error;
        } finally {
            observation.stop();
        }
    }

    private @Nullable Object invokeStage(MethodInvocation invocation) throws Throwable {
        Observation observation = observations.startCall(breaker, null);
        StageInvocation scoped = new StageInvocation(invocation, observation);
        Object returned;
        try (Observation.Scope scope = observation.openScope()) {
            returned = delegate.invoke(scoped);
        } catch (Throwable error) {
            observation.error(error);
            observation.stop();
            throw error;
        }
        if (!(returned instanceof CompletionStage<?> stage)) {
            observation.stop();
            return returned;
        }
        stage.whenComplete((value, error) -> scoped.callerGot(error == null ? null : unwrap(error)));
        return returned;
    }

    static Throwable unwrap(Throwable error) {
        return error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
    }

    /**
     * The invocation the wrapped call of a {@code CompletionStage} method proceeds with: the method's
     * future comes back as a future completed in the observation's scope, so that the breaker records
     * the outcome there. Counts down the two completions the observation waits for.
     */
    private final class StageInvocation extends DelegatingInvocation {

        private final Observation observation;
        /** The completions left before the observation stops: the caller's future, and the method's if it ran. */
        private final AtomicInteger pending = new AtomicInteger(1);

        /** The error the caller's future completed with, or {@code null}. */
        private volatile @Nullable Throwable callerError;

        StageInvocation(MethodInvocation invocation, Observation observation) {
            super(invocation);
            this.observation = observation;
        }

        /** The caller's future completed, with {@code error} or ({@code null}) a value. */
        void callerGot(@Nullable Throwable error) {
            if (error != null) {
                callerError = error;
                observation.error(error);
            }
            arrive();
        }

        @Override
        public @Nullable Object proceed() throws Throwable {
            Object returned = invocation.proceed();
            if (!(returned instanceof CompletionStage<?> stage)) {
                return returned;
            }
            pending.incrementAndGet();
            CompletableFuture<@Nullable Object> handedOn = new CompletableFuture<>();
            stage.whenComplete((value, error) -> {
                try (Observation.Scope scope = observation.openScope()) {
                    if (error == null) {
                        handedOn.complete(value);
                    } else {
                        handedOn.completeExceptionally(unwrap(error));
                    }
                } finally {
                    arrive();
                }
            });
            handedOn.whenComplete((value, error) -> {
                if (handedOn.isCancelled() && stage instanceof Future<?> future) {
                    future.cancel(true);
                }
            });
            return handedOn;
        }

        /**
         * One completion more; the last stops the observation. An outcome the breaker recorded on
         * another thread (a call timeout's timer) did not reach the observation: the caller's error
         * then stands for it, as the breaker's rules classify it.
         */
        private void arrive() {
            if (pending.decrementAndGet() != 0) {
                return;
            }
            Throwable error = callerError;
            if (error != null
                    && !(error instanceof CancellationException)
                    && BreakerObservations.lacksOutcome(observation)) {
                BreakerObservations.outcomeFromError(observation, breaker, error);
            }
            observation.stop();
        }
    }
}
