package io.breaker.test;

import io.breaker.BreakerRegistry;
import io.breaker.CircuitBreaker;
import io.breaker.Transition;
import io.breaker.TransitionListener;

import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Hears every transition of every breaker of one registry, in the order they are told. One per
 * registry (a registry keeps its listeners), cleared by each test.
 */
final class TransitionRecorder implements TransitionListener {

    private static final Map<BreakerRegistry, TransitionRecorder> RECORDERS = new WeakHashMap<>();

    private final List<Transition> transitions = new CopyOnWriteArrayList<>();

    private TransitionRecorder() {}

    static TransitionRecorder of(BreakerRegistry registry) {
        synchronized (RECORDERS) {
            return RECORDERS.computeIfAbsent(registry, added -> {
                TransitionRecorder recorder = new TransitionRecorder();
                added.addTransitionListener(recorder);
                return recorder;
            });
        }
    }

    @Override
    public void onTransition(CircuitBreaker breaker, Transition transition) {
        transitions.add(transition);
    }

    void clear() {
        transitions.clear();
    }

    List<Transition> transitions() {
        return List.copyOf(transitions);
    }
}
