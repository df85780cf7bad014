package io.breaker.spring.actuate;

import io.breaker.BreakerRegistry;
import io.breaker.CircuitBreaker;
import io.breaker.spring.actuate.BreakerEventStream.Admission;
import io.breaker.spring.actuate.BreakerEventStream.End;
import io.breaker.spring.actuate.BreakerEventStream.Subscriber;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/** The stream's slots, lifetimes and ends, without a server; time moves by hand. */
class BreakerEventStreamTest {

    private final AtomicLong now = new AtomicLong(1_000_000_000L);
    private final BreakerRegistry registry = BreakerRegistry.ofDefaults();
    private final BreakerEventStream stream = BreakerEventStream.bind(registry, BreakerEventStream.LIFETIME, now::get);

    @Test
    void oneClientHoldsAtMostItsShareAndLearnsWhenItsOldestEnds() {
        for (int i = 0; i < BreakerEventStream.MAX_PER_CLIENT; i++) {
            assertThat(stream.subscribe(null, "10.0.0.1")).isInstanceOf(Admission.Admitted.class);
            now.addAndGet(Duration.ofSeconds(5).toNanos());
        }

        Admission refused = stream.subscribe(null, "10.0.0.1");

        assertThat(refused).isInstanceOfSatisfying(Admission.Refused.class, no -> {
            assertThat(no.message()).contains("address 10.0.0.1", "at most 4 per client");
            // the first of the four started 20 s ago and lasts 60 s
            assertThat(no.retryAfterSeconds()).isEqualTo(40);
        });
        assertThat(stream.subscribe(null, "10.0.0.2")).isInstanceOf(Admission.Admitted.class);
        assertThat(stream.subscribe("alice", "10.0.0.1")).isInstanceOf(Admission.Admitted.class);
    }

    @Test
    void aUserIsOneClientWhereverTheyComeFrom() {
        for (int i = 0; i < BreakerEventStream.MAX_PER_CLIENT; i++) {
            assertThat(stream.subscribe("alice", "10.0.0." + i)).isInstanceOf(Admission.Admitted.class);
        }

        assertThat(stream.subscribe("alice", "10.0.0.9"))
                .isInstanceOfSatisfying(
                        Admission.Refused.class, no -> assertThat(no.message()).contains("user alice"));
        assertThat(stream.subscribe("bob", "10.0.0.9")).isInstanceOf(Admission.Admitted.class);
    }

    @Test
    void anonymousReadersLeaveHalfTheSlotsToSignedInUsers() {
        for (int i = 0; i < BreakerEventStream.MAX_ANONYMOUS; i++) {
            assertThat(stream.subscribe(null, "10.0.0." + i)).isInstanceOf(Admission.Admitted.class);
        }

        assertThat(stream.subscribe(null, "10.0.1.1"))
                .isInstanceOfSatisfying(
                        Admission.Refused.class,
                        no -> assertThat(no.message()).contains("anonymous readers already hold 8 of the 16"));
        for (int i = 0; i < BreakerEventStream.MAX_SUBSCRIBERS - BreakerEventStream.MAX_ANONYMOUS; i++) {
            assertThat(stream.subscribe("operator-" + i, "10.0.1.1")).isInstanceOf(Admission.Admitted.class);
        }
        assertThat(stream.subscribe("one-more", "10.0.1.1"))
                .isInstanceOfSatisfying(
                        Admission.Refused.class, no -> assertThat(no.message()).contains("already 16 subscribers"));
        assertThat(stream.subscribers()).isEqualTo(BreakerEventStream.MAX_SUBSCRIBERS);
    }

    @Test
    void aSubscriptionEndsAtItsLifetimeAndAStuckOneLosesItsSlotToTheNextClient() {
        Subscriber first = admitted(stream.subscribe(null, "10.0.0.1"));
        for (int i = 1; i < BreakerEventStream.MAX_PER_CLIENT; i++) {
            admitted(stream.subscribe(null, "10.0.0.1"));
        }
        assertThat(first.end()).isNull();

        now.addAndGet(BreakerEventStream.LIFETIME.toNanos());

        assertThat(first.end()).isEqualTo(End.EXPIRED);
        assertThat(first.nanosLeft()).isLessThanOrEqualTo(0);
        // Their readers never noticed (stuck in a write): the next subscriber takes a slot anyway.
        assertThat(stream.subscribe(null, "10.0.0.1")).isInstanceOf(Admission.Admitted.class);
        assertThat(stream.subscribers()).isEqualTo(1);
    }

    @Test
    void closeAllEndsEverySubscriptionWakesItsReaderAndRefusesNewOnesUntilReopened() throws Exception {
        Subscriber waiting = admitted(stream.subscribe("alice", null));
        Subscriber signalled = admitted(stream.subscribe("bob", null));
        AtomicInteger signals = new AtomicInteger();
        signalled.onSignal(signals::incrementAndGet);
        CountDownLatch woke = new CountDownLatch(1);
        Thread reader = new Thread(() -> {
            try {
                waiting.await(TimeUnit.MINUTES.toNanos(10));
                woke.countDown();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        reader.start();

        stream.closeAll();

        assertThat(woke.await(10, TimeUnit.SECONDS))
                .as("the waiting reader woke")
                .isTrue();
        assertThat(waiting.end()).isEqualTo(End.SHUTDOWN);
        assertThat(signalled.end()).isEqualTo(End.SHUTDOWN);
        assertThat(signals).hasValue(1);
        assertThat(stream.subscribers()).isZero();
        assertThat(stream.subscribe("carol", null))
                .isInstanceOfSatisfying(
                        Admission.Refused.class, no -> assertThat(no.message()).contains("shutting down"));

        stream.reopen();

        assertThat(stream.subscribe("carol", null)).isInstanceOf(Admission.Admitted.class);
    }

    @Test
    void aSubscriberThatFallsBehindIsDroppedWithoutSlowingTheBreaker() {
        Subscriber slow = admitted(stream.subscribe(null, "10.0.0.1"));
        AtomicInteger signals = new AtomicInteger();
        slow.onSignal(signals::incrementAndGet);
        CircuitBreaker breaker = registry.breaker("wholesaler");

        for (int i = 0; i < BreakerEventStream.QUEUE_CAPACITY / 2 + 1; i++) {
            breaker.forceOpen();
            breaker.release();
        }

        assertThat(slow.end()).isEqualTo(End.DROPPED);
        assertThat(slow.poll()).isNull();
        assertThat(stream.subscribers()).isZero();
        assertThat(stream.droppedSubscribers()).isEqualTo(1);
        assertThat(signals.get()).isEqualTo(BreakerEventStream.QUEUE_CAPACITY + 1);
    }

    @Test
    void aSessionWritesTheRetryDelayAndASnapshotThenTransitionsKeepAlivesAndItsEnd() throws Exception {
        BreakerTransitionHistory history = BreakerTransitionHistory.bind(registry, 10);
        BreakerOperations operations = new BreakerOperations(registry, history);
        CircuitBreaker breaker = registry.breaker("wholesaler");
        BreakerStreamSession session = new BreakerStreamSession(
                stream, admitted(stream.subscribe(null, "10.0.0.1")), operations, body -> "{json}");

        assertThat(session.poll()).isEqualTo("retry: 3000\n\nevent: snapshot\ndata: {json}\n\n");
        assertThat(session.poll()).isNull();
        assertThat(session.nanosUntilDue()).isEqualTo(BreakerEventStream.KEEP_ALIVE.toNanos());

        breaker.forceOpen();

        assertThat(session.next()).isEqualTo("event: transition\ndata: {json}\n\n");
        now.addAndGet(BreakerEventStream.KEEP_ALIVE.toNanos());
        assertThat(session.next()).isEqualTo(": keep-alive\n\n");
        now.addAndGet(BreakerEventStream.LIFETIME.toNanos());
        assertThat(session.next()).startsWith("event: end\ndata: {\"reason\":\"a stream lasts 60 s");
        assertThat(session.next()).isNull();
        assertThat(session.isFinished()).isTrue();
        assertThat(stream.subscribers()).isZero();
    }

    private static Subscriber admitted(Admission admission) {
        assertThat(admission).isInstanceOf(Admission.Admitted.class);
        return ((Admission.Admitted) admission).subscriber();
    }
}
