package io.breaker.spring.events;

import io.breaker.BreakerRegistry;
import io.breaker.CircuitBreaker;
import io.breaker.Transition;
import io.breaker.TransitionListener;
import org.springframework.context.ApplicationEventPublisher;

import java.util.Objects;

/**
 * Turns every transition of every breaker of a registry (existing and future ones) into a
 * {@link BreakerTransitionEvent}. It listens to transitions only; calls and rejections are left to
 * the metrics.
 */
public final class BreakerEventPublisher implements TransitionListener {

    private final ApplicationEventPublisher publisher;
    private final Object source;

    private BreakerEventPublisher(ApplicationEventPublisher publisher, Object source) {
        this.publisher = Objects.requireNonNull(publisher, "publisher");
        this.source = Objects.requireNonNull(source, "source");
    }

    /** Attaches a publisher to every breaker of {@code registry}, now and later. */
    public static BreakerEventPublisher bind(BreakerRegistry registry, ApplicationEventPublisher publisher) {
        BreakerEventPublisher listener = new BreakerEventPublisher(publisher, registry);
        registry.addTransitionListener(listener);
        return listener;
    }

    @Override
    public void onTransition(CircuitBreaker breaker, Transition transition) {
        publisher.publishEvent(new BreakerTransitionEvent(source, transition));
    }

    @Override
    public String toString() {
        return "BreakerEventPublisher";
    }
}
