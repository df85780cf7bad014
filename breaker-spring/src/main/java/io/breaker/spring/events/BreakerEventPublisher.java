package io.breaker.spring.events;

import io.breaker.BreakerListener;
import io.breaker.BreakerRegistry;
import io.breaker.Transition;
import org.springframework.context.ApplicationEventPublisher;

import java.util.Objects;

/**
 * Turns every transition of every breaker of a registry (existing and future ones) into a
 * {@link BreakerTransitionEvent}. It listens to transitions only; calls and rejections are left to
 * the metrics.
 */
public final class BreakerEventPublisher implements BreakerListener {

    private final ApplicationEventPublisher publisher;
    private final Object source;

    private BreakerEventPublisher(ApplicationEventPublisher publisher, Object source) {
        this.publisher = Objects.requireNonNull(publisher, "publisher");
        this.source = Objects.requireNonNull(source, "source");
    }

    /** Attaches a publisher to every breaker of {@code registry}, now and later. */
    public static BreakerEventPublisher bind(BreakerRegistry registry, ApplicationEventPublisher publisher) {
        BreakerEventPublisher listener = new BreakerEventPublisher(publisher, registry);
        registry.onBreakerCreated(breaker -> breaker.addListener(listener));
        return listener;
    }

    @Override
    public void onStateTransition(Transition transition) {
        publisher.publishEvent(new BreakerTransitionEvent(source, transition));
    }

    /** Watches transitions only: its presence must not make the breaker time every call. */
    @Override
    public boolean wantsCallDurations() {
        return false;
    }

    @Override
    public String toString() {
        return "BreakerEventPublisher";
    }
}
