package io.breaker;

/** A {@link TransitionListener} on one breaker, as the breaker's listener: transitions only, calls untimed. */
final class TransitionsOnly implements BreakerListener {

    private final CircuitBreaker breaker;
    private final TransitionListener listener;

    TransitionsOnly(CircuitBreaker breaker, TransitionListener listener) {
        this.breaker = breaker;
        this.listener = listener;
    }

    @Override
    public void onStateTransition(Transition transition) {
        listener.onTransition(breaker, transition);
    }

    @Override
    public boolean wantsCallDurations() {
        return false;
    }

    /** The listener's own name, so that a warning about it names it. */
    @Override
    public String toString() {
        return listener.toString();
    }
}
