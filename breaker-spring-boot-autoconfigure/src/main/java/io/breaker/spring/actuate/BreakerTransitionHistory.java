package io.breaker.spring.actuate;

import io.breaker.BreakerRegistry;
import io.breaker.CircuitBreaker;
import io.breaker.Transition;
import io.breaker.TransitionCause;
import io.breaker.TransitionListener;
import org.jspecify.annotations.Nullable;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Supplier;

/**
 * Keeps, for the {@code breakers} endpoint, the last few state transitions of every breaker of a
 * registry (existing and future ones) and, apart from them, the last few changes of its settings at
 * runtime: however many settings an operator edits, the trip that started an incident stays in the
 * transitions. Each list is a small lock-free ring per breaker, written only on a transition or a
 * change.
 */
public final class BreakerTransitionHistory implements TransitionListener {

    /** Transitions, and settings changes, kept per breaker unless told otherwise. */
    public static final int DEFAULT_SIZE = 10;

    private final Map<String, Ring<TransitionDescriptor>> transitions = new ConcurrentHashMap<>();
    private final Map<String, Ring<SettingsChangeDescriptor>> settingsChanges = new ConcurrentHashMap<>();
    /** Who is forcing each breaker through the endpoint right now (operator changes run one at a time). */
    private final Map<String, String> forcing = new ConcurrentHashMap<>();

    private final int size;

    private BreakerTransitionHistory(int size) {
        if (size < 1) {
            throw new IllegalArgumentException("size must be at least 1, was " + size);
        }
        this.size = size;
    }

    /** A history of the last {@code size} transitions of every breaker of {@code registry}, now and later. */
    public static BreakerTransitionHistory bind(BreakerRegistry registry, int size) {
        BreakerTransitionHistory history = new BreakerTransitionHistory(size);
        registry.addTransitionListener(history);
        return history;
    }

    @Override
    public void onTransition(CircuitBreaker breaker, Transition transition) {
        String principal = transition.cause() == TransitionCause.OPERATOR ? forcing.get(breaker.getName()) : null;
        transitions
                .computeIfAbsent(breaker.getName(), name -> new Ring<>(size))
                .add(TransitionDescriptor.of(transition, principal));
    }

    @Override
    public String toString() {
        return "BreakerTransitionHistory";
    }

    /**
     * Runs an operator's force of the named breaker: the transitions it makes are listed with
     * {@code principal} (which may be {@code null}: not authenticated).
     */
    <T> T forcedBy(String name, @Nullable String principal, Supplier<T> force) {
        if (principal == null) {
            return force.get();
        }
        forcing.put(name, principal);
        try {
            return force.get();
        } finally {
            forcing.remove(name);
        }
    }

    /** Adds an operator's change of settings to the named breaker's settings changes. */
    public void record(String name, SettingsChangeDescriptor change) {
        settingsChanges.computeIfAbsent(name, key -> new Ring<>(size)).add(change);
    }

    /**
     * Forgets every transition and settings change kept so far (the test kit does, so that a test
     * sharing an application context with others sees only its own).
     */
    public void clear() {
        transitions.clear();
        settingsChanges.clear();
    }

    /** The last transitions of the named breaker, newest first; empty for an unknown name. */
    public List<TransitionDescriptor> recent(String name) {
        Ring<TransitionDescriptor> ring = transitions.get(name);
        return ring == null ? List.of() : ring.newestFirst();
    }

    /** The last changes of the named breaker's settings at runtime, newest first; empty for an unknown name. */
    public List<SettingsChangeDescriptor> recentSettingsChanges(String name) {
        Ring<SettingsChangeDescriptor> ring = settingsChanges.get(name);
        return ring == null ? List.of() : ring.newestFirst();
    }

    /**
     * A ring of the last entries. A writer claims a slot with one atomic increment and then fills it;
     * a reader copies the slots from the newest down. A reader racing a writer may miss the entry
     * being written, or (on a full ring) see it in place of the oldest: acceptable for a display, and
     * no caller ever waits.
     */
    private static final class Ring<T> {

        private final AtomicReferenceArray<@Nullable T> slots;
        private final AtomicLong written = new AtomicLong();

        Ring(int size) {
            this.slots = new AtomicReferenceArray<>(size);
        }

        void add(T entry) {
            long index = written.getAndIncrement();
            slots.set((int) (index % slots.length()), entry);
        }

        List<T> newestFirst() {
            long end = written.get();
            int count = (int) Math.min(end, slots.length());
            List<T> result = new ArrayList<>(count);
            for (long i = end - 1; i >= end - count; i--) {
                @Nullable T entry = slots.get((int) (i % slots.length()));
                if (entry != null) {
                    result.add(entry);
                }
            }
            return List.copyOf(result);
        }
    }
}
