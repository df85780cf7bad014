package io.breaker.spring.cloud;

import io.breaker.spring.ResultPredicate;
import io.breaker.spring.call.BreakerCall;
import io.breaker.spring.call.ReactorCalls;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import org.springframework.cloud.client.circuitbreaker.ReactiveCircuitBreaker;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import java.time.Duration;
import java.util.function.Function;

/**
 * Spring Cloud's {@link ReactiveCircuitBreaker} on one of our breakers, with the rules the
 * {@code @CircuitProtected} advice applies to {@code Mono} and {@code Flux} ({@link ReactorCalls}):
 * a permit per subscription; a Mono counts when it emits or completes; a Flux when it completes or is
 * cancelled after an element; a cancel before any element counts neither way unless the call already
 * ran past the slow-call threshold. With the breaker's {@code record-result}, a Mono's value, or the first
 * element of a Flux, that the rule counts makes the call a failure; the values still reach the
 * subscriber. The breaker's {@code call-timeout}, when it has one, is Reactor's {@code timeout()} on
 * the publisher, failing with a {@link io.breaker.CallTimeoutException} as the advice's does; without
 * one nothing times the call out.
 */
final class ReactiveCloudCircuitBreaker extends BreakerCall
        implements ReactiveCircuitBreaker, ReactorCalls.Steps<ReactiveCloudCircuitBreaker.Run> {

    ReactiveCloudCircuitBreaker(io.breaker.CircuitBreaker breaker) {
        this(breaker, null);
    }

    /** @param recordResult the breaker's {@code record-result} check, or {@code null}: results are not looked at */
    ReactiveCloudCircuitBreaker(io.breaker.CircuitBreaker breaker, @Nullable ResultPredicate recordResult) {
        super(breaker, recordResult);
        this.callTimeout = breaker.getConfig().getCallTimeout();
    }

    /** The breaker's call timeout (fixed while it runs), or {@code null}. */
    private final @Nullable Duration callTimeout;

    /** One {@code run}: the publisher and its fallback. */
    record Run(Publisher<?> source, @Nullable Function<Throwable, ? extends Publisher<?>> fallback) {}

    @Override
    @SuppressWarnings({"unchecked", "rawtypes"})
    public <T> Mono<T> run(Mono<T> toRun, Function<Throwable, Mono<T>> fallback) {
        return (Mono) ReactorCalls.mono(this, this, new Run(toRun, fallback));
    }

    @Override
    @SuppressWarnings({"unchecked", "rawtypes"})
    public <T> Flux<T> run(Flux<T> toRun, Function<Throwable, Flux<T>> fallback) {
        return (Flux) ReactorCalls.flux(this, this, new Run(toRun, fallback));
    }

    @Override
    public Object build(Run run) {
        Duration limit = callTimeout;
        return limit == null ? run.source() : ReactorCalls.timed(run.source(), breaker.getName(), limit);
    }

    @Override
    public Object rejected(Run run, long answer) {
        if (run.fallback() == null) {
            throw rejection(answer);
        }
        return run.fallback().apply(rejection(answer));
    }

    @Override
    public Object recover(Run run, Throwable error) throws Throwable {
        if (run.fallback() == null) {
            throw error;
        }
        return run.fallback().apply(error);
    }

    @Override
    protected boolean hasFallback() {
        return true;
    }

    @Override
    protected boolean serves(Throwable error) {
        return true;
    }

    @Override
    public String toString() {
        return "ReactiveCloudCircuitBreaker[" + breaker.getName() + "]";
    }
}
