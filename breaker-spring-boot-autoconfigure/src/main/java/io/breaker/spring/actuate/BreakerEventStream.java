package io.breaker.spring.actuate;

import io.breaker.BreakerListener;
import io.breaker.BreakerRegistry;
import io.breaker.Transition;
import org.jspecify.annotations.Nullable;

import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArraySet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The transitions of every breaker, handed to subscribers of {@code GET /actuator/breakers/stream}.
 *
 * <p>Rules:
 * <ul>
 * <li><b>A protected call never waits for a subscriber.</b> The listener runs on the thread that won
 *     a transition; it only offers the transition to each subscriber's bounded queue (no write, no
 *     JSON, no wait). A subscriber whose queue is full is dropped: it gets no more events, and its
 *     connection ends as soon as its own thread notices.</li>
 * <li><b>Memory per subscriber is bounded:</b> at most {@link #QUEUE_CAPACITY} transitions wait for
 *     it, and at most {@link #MAX_SUBSCRIBERS} subscribe at once.</li>
 * <li><b>No thread or timer of ours.</b> Each subscriber's own request thread writes its events (as a
 *     servlet does for any long response); while nothing happens it wakes every
 *     {@link #KEEP_ALIVE_SECONDS} seconds to write a comment line, which is how it learns that its
 *     client has gone.</li>
 * </ul>
 */
public final class BreakerEventStream {

    /** Transitions that may wait for one subscriber; one more and the subscriber is dropped. */
    public static final int QUEUE_CAPACITY = 256;
    /** Subscribers at once; one more is refused (503). */
    public static final int MAX_SUBSCRIBERS = 16;
    /** How long a subscriber's thread waits for a transition before it writes a keep-alive comment. */
    public static final long KEEP_ALIVE_SECONDS = 15;

    private final Set<Subscriber> subscribers = new CopyOnWriteArraySet<>();
    private final AtomicLong dropped = new AtomicLong();

    private BreakerEventStream() {}

    /** A stream of the transitions of every breaker of {@code registry}, now and later. */
    public static BreakerEventStream bind(BreakerRegistry registry) {
        BreakerEventStream stream = new BreakerEventStream();
        registry.onBreakerCreated(breaker -> breaker.addListener(stream.new Fanout()));
        return stream;
    }

    /** A new subscriber, or {@code null} when {@link #MAX_SUBSCRIBERS} are already subscribed. */
    public @Nullable Subscriber subscribe() {
        Subscriber subscriber = new Subscriber();
        synchronized (subscribers) { // subscribing is rare; the count and the add go together
            if (subscribers.size() >= MAX_SUBSCRIBERS) {
                return null;
            }
            subscribers.add(subscriber);
        }
        return subscriber;
    }

    /** Subscribers now. */
    public int subscribers() {
        return subscribers.size();
    }

    /** Subscribers dropped since start-up because they did not keep up. */
    public long droppedSubscribers() {
        return dropped.get();
    }

    /** One subscriber: a bounded queue, read by its own request thread. */
    public final class Subscriber implements AutoCloseable {

        private final BlockingQueue<Transition> queue = new ArrayBlockingQueue<>(QUEUE_CAPACITY);
        private volatile boolean droppedOut;

        private Subscriber() {}

        void offer(Transition transition) {
            if (droppedOut) {
                return;
            }
            if (!queue.offer(transition)) {
                droppedOut = true;
                dropped.incrementAndGet();
                subscribers.remove(this);
                queue.clear(); // nothing more will be read: free the memory now
            }
        }

        /**
         * The next transition, waiting at most the keep-alive period; {@code null} when none came.
         *
         * @throws InterruptedException if the request thread is interrupted
         */
        public @Nullable Transition next() throws InterruptedException {
            return queue.poll(KEEP_ALIVE_SECONDS, TimeUnit.SECONDS);
        }

        /** Whether this subscriber fell behind and was dropped. */
        public boolean isDropped() {
            return droppedOut;
        }

        /** Unsubscribes (the client went away, or the stream ended). */
        @Override
        public void close() {
            subscribers.remove(this);
            queue.clear();
        }
    }

    /** Told of every transition of one breaker: offers it to each subscriber, never waits. */
    private final class Fanout implements BreakerListener {

        @Override
        public void onStateTransition(Transition transition) {
            for (Subscriber subscriber : subscribers) {
                subscriber.offer(transition);
            }
        }

        @Override
        public boolean wantsCallDurations() {
            return false;
        }

        @Override
        public String toString() {
            return "BreakerEventStream";
        }
    }

    @Override
    public String toString() {
        return "BreakerEventStream{subscribers=" + subscribers.size() + ", dropped=" + dropped.get() + "}";
    }
}
