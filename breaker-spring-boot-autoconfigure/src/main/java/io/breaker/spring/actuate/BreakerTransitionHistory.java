package io.breaker.spring.actuate;

import io.breaker.BreakerRegistry;
import io.breaker.CircuitBreaker;
import io.breaker.Transition;
import io.breaker.TransitionListener;
import org.jspecify.annotations.Nullable;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Keeps the last few transitions of every breaker of a registry (existing and future ones), for the
 * {@code breakers} endpoint. Each breaker gets a small lock-free ring, written only on a transition.
 */
public final class BreakerTransitionHistory implements TransitionListener {

    /** Transitions kept per breaker unless told otherwise. */
    public static final int DEFAULT_SIZE = 10;

    private final Map<String, Ring> rings = new ConcurrentHashMap<>();
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
        rings.computeIfAbsent(breaker.getName(), name -> new Ring(size)).add(TransitionDescriptor.of(transition));
    }

    @Override
    public String toString() {
        return "BreakerTransitionHistory";
    }

    /**
     * Adds an entry that is not a state change (an operator's change of settings) to the named
     * breaker's recent transitions (the caller names a breaker of the registry).
     */
    public void record(String name, TransitionDescriptor entry) {
        rings.computeIfAbsent(name, key -> new Ring(size)).add(entry);
    }

    /** The last transitions of the named breaker, newest first; empty for an unknown name. */
    public List<TransitionDescriptor> recent(String name) {
        Ring ring = rings.get(name);
        return ring == null ? List.of() : ring.newestFirst();
    }

    /**
     * A ring of the last transitions. A writer claims a slot with one atomic increment and then
     * fills it; a reader copies the slots from the newest down. A reader racing a writer may miss the
     * transition being written, or (on a full ring) see it in place of the oldest: acceptable for
     * a display, and no caller ever waits.
     */
    private static final class Ring {

        private final AtomicReferenceArray<@Nullable TransitionDescriptor> slots;
        private final AtomicLong written = new AtomicLong();

        Ring(int size) {
            this.slots = new AtomicReferenceArray<>(size);
        }

        void add(TransitionDescriptor entry) {
            long index = written.getAndIncrement();
            slots.set((int) (index % slots.length()), entry);
        }

        List<TransitionDescriptor> newestFirst() {
            long end = written.get();
            int count = (int) Math.min(end, slots.length());
            List<TransitionDescriptor> result = new ArrayList<>(count);
            for (long i = end - 1; i >= end - count; i--) {
                TransitionDescriptor entry = slots.get((int) (i % slots.length()));
                if (entry != null) {
                    result.add(entry);
                }
            }
            return List.copyOf(result);
        }
    }
}
