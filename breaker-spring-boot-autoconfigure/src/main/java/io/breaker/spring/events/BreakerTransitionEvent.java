package io.breaker.spring.events;

import io.breaker.BreakerMetrics;
import io.breaker.State;
import io.breaker.Transition;
import io.breaker.TransitionCause;
import org.springframework.context.ApplicationEvent;

import java.time.Instant;

/**
 * Published once per state change of any breaker in the application's
 * {@link io.breaker.BreakerRegistry}. Listen with {@code @EventListener}:
 * <pre>{@code
 * @EventListener
 * void onTransition(BreakerTransitionEvent event) {
 *     if (event.getTo() == State.OPEN) { ... }
 * }
 * }</pre>
 * Listeners run synchronously on the thread whose call caused the change, or on the thread still
 * reporting the transition before it (see {@link io.breaker.BreakerListener}); events arrive once
 * each, in order, unless the application configures an asynchronous event multicaster or uses
 * {@code @Async}. Keep them short.
 */
public class BreakerTransitionEvent extends ApplicationEvent {

    private static final long serialVersionUID = 1L;

    private final transient Transition transition;

    /**
     * @param source     the registry whose breaker changed state
     * @param transition the change, as the breaker reported it
     */
    public BreakerTransitionEvent(Object source, Transition transition) {
        super(source);
        this.transition = transition;
    }

    /** The change, as the breaker reported it. */
    public Transition getTransition() {
        return transition;
    }

    /** The name of the breaker that changed state. */
    public String getBreakerName() {
        return transition.breaker();
    }

    /** The state before. */
    public State getFrom() {
        return transition.from();
    }

    /** The state after. */
    public State getTo() {
        return transition.to();
    }

    /** Why the state changed. */
    public TransitionCause getCause() {
        return transition.cause();
    }

    /** Wall-clock time of the change. */
    public Instant getAt() {
        return transition.at();
    }

    /** The breaker's numbers at the moment of the change. */
    public BreakerMetrics getMetrics() {
        return transition.metrics();
    }

    @Override
    public String toString() {
        return "BreakerTransitionEvent{breaker=" + transition.breaker() + ", from=" + transition.from() + ", to="
                + transition.to() + ", cause=" + transition.cause() + "}";
    }
}
