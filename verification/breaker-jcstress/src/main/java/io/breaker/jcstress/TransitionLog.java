package io.breaker.jcstress;

import io.breaker.BreakerListener;
import io.breaker.State;
import io.breaker.Transition;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * A listener that writes down every transition it hears, in the order it hears them, as
 * {@code FROM>TO}. Results are built from it as space-separated words (no regex characters, so an
 * outcome id can be written literally).
 */
final class TransitionLog implements BreakerListener {

    private final ConcurrentLinkedQueue<String> heard = new ConcurrentLinkedQueue<>();

    @Override
    public void onStateTransition(Transition transition) {
        heard.add(transition.from() + ">" + transition.to());
    }

    @Override
    public boolean wantsCallDurations() {
        return false;
    }

    /** What was heard, in the order heard; "none" if nothing. */
    String inOrder() {
        return heard.isEmpty() ? "none" : String.join(" ", heard);
    }

    /** What was heard, sorted (for tests where two transitions may be told in either order). */
    String sorted() {
        List<String> copy = new ArrayList<>(heard);
        Collections.sort(copy);
        return copy.isEmpty() ? "none" : String.join(" ", copy);
    }

    /** How many times {@code from -> to} was heard. */
    int count(State from, State to) {
        String wanted = from + ">" + to;
        int count = 0;
        for (String transition : heard) {
            if (transition.equals(wanted)) {
                count++;
            }
        }
        return count;
    }
}
