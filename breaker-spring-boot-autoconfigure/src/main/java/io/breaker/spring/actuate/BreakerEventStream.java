package io.breaker.spring.actuate;

import io.breaker.BreakerListener;
import io.breaker.BreakerRegistry;
import io.breaker.Transition;
import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArraySet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;

/**
 * The transitions of every breaker, handed to subscribers of {@code GET /actuator/breakers/stream}, on
 * either web stack ({@link BreakerStreamSession} turns a subscriber into the text a client reads).
 *
 * <p>Rules:
 * <ul>
 * <li><b>A protected call never waits for a subscriber.</b> The listener runs on the thread that won
 *     a transition; it only offers the transition to each subscriber's bounded queue (no write, no
 *     JSON, no wait). A subscriber whose queue is full is dropped: its slot is free at once, and its
 *     connection ends as soon as its reader notices. A reader with no thread of its own (WebFlux) is
 *     told through {@link Subscriber#onSignal}, whose task must only hand the work on.</li>
 * <li><b>Memory per subscriber is bounded:</b> at most {@link #QUEUE_CAPACITY} transitions wait for
 *     it, and at most {@link #MAX_SUBSCRIBERS} subscribe at once.</li>
 * <li><b>No client takes every slot.</b> One client (a user by principal name, an anonymous reader by
 *     remote address) holds at most {@link #MAX_PER_CLIENT} subscriptions, and anonymous readers
 *     together at most {@link #MAX_ANONYMOUS}, so signed-in operators always find a slot. A refusal says
 *     when the first slot that would let the client in comes free.</li>
 * <li><b>No subscriber keeps its slot for long.</b> A subscription ends after {@link #LIFETIME}, read or
 *     not (a client reconnects, an EventSource by itself after {@link #RECONNECT}); one whose reader is
 *     stuck past that is evicted when another client asks for a slot.</li>
 * <li><b>No thread or timer of ours.</b> The readers wait: a servlet request's own thread, or (WebFlux)
 *     Reactor's; {@link #closeAll} ends every subscription and wakes every reader at once, so that a
 *     graceful shutdown finds no stream still open.</li>
 * </ul>
 */
public final class BreakerEventStream {

    /** Transitions that may wait for one subscriber; one more and the subscriber is dropped. */
    public static final int QUEUE_CAPACITY = 256;
    /** Subscribers at once; one more is refused (503). */
    public static final int MAX_SUBSCRIBERS = 16;
    /** Subscribers at once for one client: one principal, or one remote address when anonymous. */
    public static final int MAX_PER_CLIENT = 4;
    /** Anonymous subscribers at once, all addresses together: half the slots stay for signed-in users. */
    public static final int MAX_ANONYMOUS = MAX_SUBSCRIBERS / 2;
    /** How long a stream stays quiet before a keep-alive comment is written. */
    public static final Duration KEEP_ALIVE = Duration.ofSeconds(15);
    /** How long one subscription lasts; the stream then ends and the client reconnects. */
    public static final Duration LIFETIME = Duration.ofSeconds(60);
    /** How long a client waits before it reconnects (the stream's {@code retry:} field). */
    public static final Duration RECONNECT = Duration.ofSeconds(3);

    private final Set<Subscriber> subscribers = new CopyOnWriteArraySet<>();
    private final AtomicLong dropped = new AtomicLong();
    private final Duration lifetime;
    private final long lifetimeNanos;
    private final LongSupplier nanoClock;
    /** Guarded by {@link #subscribers}: false between {@link #closeAll} and {@link #reopen}. */
    private boolean open = true;

    private BreakerEventStream(Duration lifetime, LongSupplier nanoClock) {
        this.lifetime = lifetime;
        this.lifetimeNanos = lifetime.toNanos();
        this.nanoClock = nanoClock;
    }

    /** A stream of the transitions of every breaker of {@code registry}, now and later. */
    public static BreakerEventStream bind(BreakerRegistry registry) {
        return bind(registry, LIFETIME, System::nanoTime);
    }

    /** As {@link #bind(BreakerRegistry)}, with another lifetime and clock (tests). */
    static BreakerEventStream bind(BreakerRegistry registry, Duration lifetime, LongSupplier nanoClock) {
        BreakerEventStream stream = new BreakerEventStream(lifetime, nanoClock);
        registry.onBreakerCreated(breaker -> breaker.addListener(stream.new Fanout()));
        return stream;
    }

    /**
     * A new subscriber for a client, or why not.
     *
     * @param principal the authenticated user's name, or {@code null} for an anonymous reader
     * @param address   the client's remote address (the one an anonymous reader is counted by), or {@code null}
     */
    public Admission subscribe(@Nullable String principal, @Nullable String address) {
        Client client = principal != null
                ? new Client("user " + principal, false)
                : new Client("address " + (address == null ? "unknown" : address), true);
        synchronized (subscribers) { // subscribing is rare; the counts and the add go together
            long now = nanoClock.getAsLong();
            if (!open) {
                return new Admission.Refused("the application is shutting down", RECONNECT.toSeconds());
            }
            for (Subscriber subscriber : subscribers) {
                if (now - subscriber.deadline >= 0) {
                    subscriber.finish(End.EXPIRED); // its reader is stuck: it may not keep the slot
                }
            }
            int ofClient = 0;
            int anonymous = 0;
            long firstOfClient = Long.MAX_VALUE;
            long firstAnonymous = Long.MAX_VALUE;
            long first = Long.MAX_VALUE;
            for (Subscriber subscriber : subscribers) {
                long left = subscriber.deadline - now;
                first = Math.min(first, left);
                if (subscriber.client.equals(client)) {
                    ofClient++;
                    firstOfClient = Math.min(firstOfClient, left);
                }
                if (subscriber.client.anonymous()) {
                    anonymous++;
                    firstAnonymous = Math.min(firstAnonymous, left);
                }
            }
            if (ofClient >= MAX_PER_CLIENT) {
                return refused(
                        "already " + ofClient + " streams for this client (" + client.name() + "): at most "
                                + MAX_PER_CLIENT + " per client",
                        firstOfClient);
            }
            if (client.anonymous() && anonymous >= MAX_ANONYMOUS) {
                return refused(
                        "anonymous readers already hold " + anonymous + " of the " + MAX_SUBSCRIBERS
                                + " stream slots; the others are kept for signed-in users",
                        firstAnonymous);
            }
            if (subscribers.size() >= MAX_SUBSCRIBERS) {
                return refused("already " + MAX_SUBSCRIBERS + " subscribers to the breakers stream", first);
            }
            Subscriber subscriber = new Subscriber(client, now + lifetimeNanos);
            subscribers.add(subscriber);
            return new Admission.Admitted(subscriber);
        }
    }

    private static Admission refused(String message, long nanosUntilASlot) {
        long seconds = TimeUnit.NANOSECONDS.toSeconds(Math.max(0, nanosUntilASlot) + TimeUnit.SECONDS.toNanos(1) - 1);
        return new Admission.Refused(message, Math.max(1, seconds));
    }

    /**
     * Ends every subscription (each reader writes its end and returns) and refuses new ones until
     * {@link #reopen}: the application is stopping.
     */
    public void closeAll() {
        synchronized (subscribers) {
            open = false;
        }
        for (Subscriber subscriber : subscribers) {
            subscriber.finish(End.SHUTDOWN);
        }
    }

    /** Takes subscribers again after {@link #closeAll} (the application started again). */
    public void reopen() {
        synchronized (subscribers) {
            open = true;
        }
    }

    /** Subscribers now. */
    public int subscribers() {
        return subscribers.size();
    }

    /** Subscribers dropped since start-up because they did not keep up. */
    public long droppedSubscribers() {
        return dropped.get();
    }

    long nanoTime() {
        return nanoClock.getAsLong();
    }

    /** How long one subscription lasts here ({@link #LIFETIME} but in tests). */
    Duration lifetime() {
        return lifetime;
    }

    /** Who holds a subscription: a user, or an anonymous reader's address. */
    private record Client(String name, boolean anonymous) {}

    /** Whether {@link #subscribe} let a client in. */
    public sealed interface Admission {

        /** The client is subscribed; it must {@link Subscriber#close()} its subscriber when done. */
        record Admitted(Subscriber subscriber) implements Admission {}

        /**
         * No slot for this client.
         *
         * @param message           why, for the 503's body
         * @param retryAfterSeconds when a slot that would let it in comes free at the latest (at least 1)
         */
        record Refused(String message, long retryAfterSeconds) implements Admission {}
    }

    /** Why a subscription ended. */
    public enum End {
        /** Its queue was full: the client fell {@link #QUEUE_CAPACITY} transitions behind. */
        DROPPED,
        /** It reached {@link #LIFETIME}. */
        EXPIRED,
        /** The application is stopping ({@link #closeAll}). */
        SHUTDOWN,
        /** Its reader closed it: the client went away, or the stream ended. */
        CLOSED
    }

    /**
     * One subscriber: a bounded queue, read by one reader, which either waits on it with a thread of
     * its own ({@link #await}) or is told when to look ({@link #onSignal}).
     */
    public final class Subscriber implements AutoCloseable {

        private final Client client;
        private final long deadline;
        private final ReentrantLock lock = new ReentrantLock();
        private final Condition signal = lock.newCondition();
        /** Guarded by {@link #lock}, as the rest below. */
        private final ArrayDeque<Transition> queue = new ArrayDeque<>();

        private End end;
        private Runnable onSignal;

        private Subscriber(Client client, long deadline) {
            this.client = client;
            this.deadline = deadline;
        }

        /** On the thread that made the transition: a bounded offer, a signal, nothing that waits. */
        void offer(Transition transition) {
            Runnable wake;
            boolean droppedNow = false;
            lock.lock();
            try {
                if (end != null) {
                    return;
                }
                if (queue.size() >= QUEUE_CAPACITY) {
                    end = End.DROPPED;
                    queue.clear(); // nothing more will be read: free the memory now
                    droppedNow = true;
                } else {
                    queue.add(transition);
                }
                signal.signal();
                wake = onSignal;
            } finally {
                lock.unlock();
            }
            if (droppedNow) {
                dropped.incrementAndGet();
                subscribers.remove(this);
            }
            if (wake != null) {
                wake.run();
            }
        }

        /** Ends this subscription (its slot is free at once) and wakes its reader, unless it had ended. */
        void finish(End why) {
            Runnable wake;
            lock.lock();
            try {
                if (end == null) {
                    end = why;
                    queue.clear();
                }
                signal.signal();
                wake = onSignal;
            } finally {
                lock.unlock();
            }
            subscribers.remove(this);
            if (wake != null) {
                wake.run();
            }
        }

        /** The next transition waiting, or {@code null}; never waits. */
        @Nullable
        public Transition poll() {
            lock.lock();
            try {
                return queue.poll();
            } finally {
                lock.unlock();
            }
        }

        /**
         * Waits until a transition waits, the subscription ends or {@code nanos} have passed, whichever
         * comes first (for a reader that has a thread of its own).
         *
         * @throws InterruptedException if the reader's thread is interrupted
         */
        public void await(long nanos) throws InterruptedException {
            lock.lock();
            try {
                long left = nanos;
                while (queue.isEmpty() && end == null && left > 0) {
                    left = signal.awaitNanos(left);
                }
            } finally {
                lock.unlock();
            }
        }

        /**
         * Registers what to run when a transition arrives or the subscription ends, for a reader without
         * a thread of its own. It runs on the thread that made the transition, so it must only hand the
         * work on (schedule a task), never do it.
         */
        public void onSignal(Runnable task) {
            lock.lock();
            try {
                onSignal = Objects.requireNonNull(task, "task");
            } finally {
                lock.unlock();
            }
        }

        /** Why this subscription ended, or {@code null} while it goes on. */
        @Nullable
        public End end() {
            lock.lock();
            try {
                if (end == null && nanosLeft() <= 0) {
                    end = End.EXPIRED;
                    queue.clear();
                }
                return end;
            } finally {
                lock.unlock();
            }
        }

        /** Nanoseconds until this subscription reaches its lifetime (0 or less: it has). */
        public long nanosLeft() {
            return deadline - nanoClock.getAsLong();
        }

        /** Unsubscribes (the client went away, or the stream ended). */
        @Override
        public void close() {
            lock.lock();
            try {
                if (end == null) {
                    end = End.CLOSED;
                }
                queue.clear();
                onSignal = null;
            } finally {
                lock.unlock();
            }
            subscribers.remove(this);
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
