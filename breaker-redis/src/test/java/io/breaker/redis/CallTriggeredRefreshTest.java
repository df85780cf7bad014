package io.breaker.redis;

import io.breaker.BreakerConfig;
import io.breaker.CircuitBreaker;
import io.breaker.NanoClock;
import io.breaker.SlidingWindowType;
import io.breaker.State;
import io.breaker.spring.test.BootLine;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;

import static io.breaker.redis.Fleet.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The cached shared state is refreshed by calls, never by a timer: an idle breaker costs no Redis
 * command, and a call finding the cache older than one TTL (on the breaker's own clock) starts
 * exactly one refresh, without waiting for it. A success looks at the clock only every few
 * successes (at most {@link RedisSharedState#MAX_CHECK_MASK} + 1 of one thread), so steady traffic
 * still refreshes within one TTL and a little.
 */
@Tag(BootLine.TAG)
class CallTriggeredRefreshTest {

    @RegisterExtension
    static final RedisServer redis = new RedisServer();

    private static final Duration TTL = Duration.ofMillis(100);
    private static final RedisStoreSettings SETTINGS =
            RedisStoreSettings.defaults().withStateCacheTtl(TTL).withTimeout(Duration.ofMillis(90));
    private static final BreakerConfig CONFIG = BreakerConfig.builder()
            .slidingWindow(SlidingWindowType.COUNT_BASED, 10)
            .minimumNumberOfCalls(5)
            .waitDurationInOpenState(Duration.ofMinutes(1))
            .build();

    private static String unique(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    @Test
    void anIdleSharedBreakerSendsNoRedisCommandAndNoRefreshThreadExists() throws Exception {
        try (Fleet fleet = new Fleet(redis, 2, CONFIG, SETTINGS)) {
            List<CircuitBreaker> idle = fleet.breakers(unique("idle"));
            awaitQuiet(); // the one sync each new breaker makes when it is created
            long before = commandsSent();

            // Real time must pass here: a timer would run on it. Ten cache TTLs, nobody calling.
            Thread.sleep(TTL.multipliedBy(10).toMillis());

            assertThat(commandsSent() - before).isZero();
            assertThat(idle).allMatch(breaker -> breaker.getState() == State.CLOSED);
            assertThat(Thread.getAllStackTraces().keySet())
                    .extracting(Thread::getName)
                    .noneMatch(name -> name.startsWith("breaker-redis-refresh"))
                    .allMatch(name -> !name.startsWith("breaker-redis-") || name.startsWith("breaker-redis-command-"));
        }
    }

    @Test
    void successesWithinOneStrideAfterOneTtlOnTheBreakersClockRefreshTheCacheWithoutWaitingForIt() throws Exception {
        AtomicLong time = new AtomicLong();
        NanoClock clock = time::get;
        try (Fleet fleet = new Fleet(redis, 2, CONFIG, SETTINGS, clock)) {
            List<CircuitBreaker> breakers = fleet.breakers(unique("due"));
            CircuitBreaker a = breakers.get(0);
            CircuitBreaker b = breakers.get(1);
            awaitQuiet();
            assertThat(a.forceOpen()).isTrue();
            long afterForce = scriptsRun();

            // Within the TTL, B serves from its cache: its calls pass and send nothing.
            time.addAndGet(TTL.toNanos() - 1);
            for (int i = 0; i < 100; i++) {
                long permit = b.tryAcquirePermit();
                assertThat(permit).isNotEqualTo(CircuitBreaker.NO_PERMIT);
                b.onSuccess(permit, 0L);
            }
            assertThat(scriptsRun()).isEqualTo(afterForce);
            assertThat(b.getState()).isEqualTo(State.CLOSED);

            // One TTL later, at most one stride of successes: they still pass (nobody waits), and one
            // of them starts the refresh (100 calls at one instant made the stride the longest).
            time.addAndGet(1);
            for (int i = 0; i <= RedisSharedState.MAX_CHECK_MASK; i++) {
                long permit2 = b.tryAcquirePermit();
                assertThat(permit2).isNotEqualTo(CircuitBreaker.NO_PERMIT);
                b.onSuccess(permit2, 0L);
            }
            await(Duration.ofSeconds(3), () -> b.getState() == State.FORCED_OPEN);
            awaitQuiet();
            assertThat(scriptsRun() - afterForce).isEqualTo(1);

            // Rejected calls within the next TTL send nothing either.
            for (int i = 0; i < 100; i++) {
                assertThat(b.tryAcquirePermit()).isEqualTo(CircuitBreaker.NO_PERMIT);
            }
            assertThat(scriptsRun() - afterForce).isEqualTo(1);
        }
    }

    /**
     * Steady traffic on the breaker's clock (200 calls per TTL, on one thread): a change another
     * instance makes is adopted after at most one TTL and an eighth of traffic, the longest a stride
     * can grow to at that pace, and no more than one refresh is sent per TTL meanwhile.
     */
    @Test
    void steadyTrafficRefreshesTheCacheWithinOneTtlAndAnEighth() throws Exception {
        AtomicLong time = new AtomicLong();
        NanoClock clock = time::get;
        long step = TTL.toNanos() / 200;
        try (Fleet fleet = new Fleet(redis, 2, CONFIG, SETTINGS, clock)) {
            List<CircuitBreaker> breakers = fleet.breakers(unique("steady"));
            CircuitBreaker a = breakers.get(0);
            CircuitBreaker b = breakers.get(1);
            awaitQuiet();
            // Three TTLs of traffic first: B's stride grows to its size for this pace.
            for (int i = 0; i < 600; i++) {
                time.addAndGet(step);
                b.onSuccess(b.tryAcquirePermit(), 0L);
            }
            awaitQuiet();
            assertThat(a.forceOpen()).isTrue();
            long afterForce = scriptsRun();

            long callsInOneTtlAndAnEighth = 200 + 200 / 8;
            for (int i = 0; i < callsInOneTtlAndAnEighth; i++) {
                time.addAndGet(step);
                long permit = b.tryAcquirePermit();
                if (permit == CircuitBreaker.NO_PERMIT) {
                    break; // the refresh came back already: B rejects, as A does
                }
                b.onSuccess(permit, 0L);
            }
            await(Duration.ofSeconds(3), () -> b.getState() == State.FORCED_OPEN);
            awaitQuiet();
            assertThat(scriptsRun() - afterForce).isBetween(1L, 2L);
        }
    }

    @Test
    void ofManyThreadsCallingADueBreakerExactlyOneStartsTheRefresh() throws Exception {
        AtomicLong time = new AtomicLong();
        NanoClock clock = time::get;
        try (Fleet fleet = new Fleet(redis, 1, CONFIG, SETTINGS, clock)) {
            CircuitBreaker breaker = fleet.breakers(unique("race")).get(0);
            awaitQuiet();
            long before = scriptsRun();
            time.addAndGet(TTL.toNanos());

            CountDownLatch start = new CountDownLatch(1);
            List<Thread> callers = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                callers.add(Fleet.thread(() -> {
                    try {
                        start.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                    for (int i = 0; i < 2_000; i++) {
                        breaker.execute(() -> "ok");
                    }
                }));
            }
            start.countDown();
            for (Thread caller : callers) {
                caller.join();
            }
            awaitQuiet();

            assertThat(scriptsRun() - before).isEqualTo(1);
        }
    }

    /** Commands Redis ran so far (scripts and the commands inside them), leaving out this test's own INFO commands. */
    private static long commandsSent() throws IOException {
        long total = 0;
        for (String line : redis.command("INFO", "commandstats").split("\r\n")) {
            if (line.startsWith("cmdstat_") && !line.startsWith("cmdstat_info:")) {
                String calls = line.substring(line.indexOf("calls=") + 6);
                total += Long.parseLong(calls.substring(0, calls.indexOf(',')));
            }
        }
        return total;
    }

    /**
     * Script calls (round trips) Redis ran so far: EVALSHA, plus EVAL the first time a script is sent.
     * The commands a script runs inside are counted by commandstats too, so they are left out here.
     */
    private static long scriptsRun() throws IOException {
        long total = 0;
        for (String line : redis.command("INFO", "commandstats").split("\r\n")) {
            if (line.startsWith("cmdstat_evalsha:") || line.startsWith("cmdstat_eval:")) {
                String calls = line.substring(line.indexOf("calls=") + 6);
                total += Long.parseLong(calls.substring(0, calls.indexOf(',')));
            }
        }
        return total;
    }

    /** Waits until Redis has received no command for a little while: refreshes in flight have landed. */
    private static void awaitQuiet() throws Exception {
        long[] last = {commandsSent()};
        long[] stableSince = {System.nanoTime()};
        await(Duration.ofSeconds(5), () -> {
            long now;
            try {
                now = commandsSent();
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
            if (now != last[0]) {
                last[0] = now;
                stableSince[0] = System.nanoTime();
                return false;
            }
            return System.nanoTime() - stableSince[0] > Duration.ofMillis(200).toNanos();
        });
    }
}
