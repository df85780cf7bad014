package io.breaker;

/**
 * Hears the transitions of breakers, and nothing else: no call event, and its presence never makes a
 * breaker time its calls. Added to every breaker of a registry, present and future, with
 * {@link BreakerRegistry#addTransitionListener}; told like any {@link BreakerListener} (once per
 * transition, in order, on a calling thread; a listener that throws is logged and ignored).
 */
@FunctionalInterface
public interface TransitionListener {

    /**
     * {@code breaker} changed state.
     *
     * @param breaker    the breaker that changed (its name, its settings, its numbers now)
     * @param transition the change
     */
    void onTransition(CircuitBreaker breaker, Transition transition);
}
