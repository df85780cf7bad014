package io.breaker.dynamodb;

import io.breaker.BreakerConfig;
import io.breaker.BreakerListener;
import io.breaker.BreakerRegistry;
import io.breaker.CircuitBreaker;
import io.breaker.NanoClock;
import io.breaker.SlidingWindowType;
import io.breaker.State;
import io.breaker.Transition;
import io.breaker.redis.RedisServer;
import io.breaker.redis.RedisSharedBreakers;
import io.breaker.redis.RedisStateStore;
import io.breaker.redis.RedisStoreSettings;
import io.breaker.spi.StateStore;
import io.breaker.spring.actuate.FleetChange;
import io.breaker.spring.actuate.SharedBreakers;
import io.breaker.spring.store.StoreFailureMode;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The protocol's rules as scenarios, each played by three instances (each its own store and
 * registry) on the Redis store and on the DynamoDB store at the same time: what every instance sees
 * is written down step by step, and the two stores must write the same lines, which are also the
 * scenario's expected ones. A scenario per rule of the protocol the stores share (docs/dynamodb.md,
 * "The protocol in conditional writes"): report and trip, probe lease, probe failed (with backoff),
 * close, operator (also on a fleet already in the target state, and an older action arriving after
 * a newer one), a lost state put back, slow calls. None depends on how exactly a store counts a
 * window that has seen more calls than one block (there the stores differ by design). Not played
 * here: a trip made alone during an outage, settings changed at runtime.
 *
 * <p>Times are real (Redis decides by its own clock, and its scripts cannot be given another), waits
 * are short, and every step waits for a state, never for a duration, except where the duration is
 * what the rule is about. i0 reaches its store through a {@link HeldRelay}, so that a scenario can
 * make one of its requests arrive late.
 */
class SameScenariosOnBothStoresTest {

    @RegisterExtension
    static final RedisServer REDIS = new RedisServer();

    @RegisterExtension
    static final Dynalite DYNALITE = new Dynalite();

    @RegisterExtension
    final DynamoStores dynamoStores = new DynamoStores(DYNALITE);

    private static final int INSTANCES = 3;
    private static final Duration TTL = Duration.ofMillis(1500);
    /**
     * Long (shorter than the TTL, as the Redis store requires), so that a slow answer on a loaded
     * machine is waited for rather than taken for an outage: a failure report answered late leaves
     * its instance deciding alone, and the transcript would differ.
     */
    private static final Duration TIMEOUT = Duration.ofMillis(1200);

    private static final Duration OUTAGE_AFTER = Duration.ofSeconds(30);

    /** Longer than the cache TTL and its refresh: every instance learns of a trip before any may probe. */
    private static final Duration WAIT = Duration.ofMillis(2500);

    /** Long enough for a probe's rounds and a check within a second lease (see the scenario of a lease taken over). */
    private static final Duration LEASE = Duration.ofSeconds(2);

    /** A measured wait is taken as the configured one if it falls short of it by less than this. */
    private static final Duration SLACK = Duration.ofMillis(250);

    /** Four failures out of four calls trip; three stay below the minimum. */
    private static final BreakerConfig CONFIG = BreakerConfig.builder()
            .slidingWindowType(SlidingWindowType.COUNT_BASED)
            .slidingWindowSize(10)
            .minimumNumberOfCalls(4)
            .failureRateThreshold(50)
            .waitDurationInOpenState(WAIT)
            .permittedCallsInHalfOpenState(1)
            .probeLease(Duration.ofSeconds(30))
            .build();

    private static final List<String> FAILURES =
            List.of("i0 fails: CLOSED", "i1 fails: CLOSED", "i2 fails: CLOSED", "i0 fails: OPEN");

    private static final List<String> TRIP = concat(FAILURES, "all OPEN (FAILURE_RATE)");

    /** One rule of the protocol, played by the instances, with what they must see. */
    record Scenario(String name, BreakerConfig config, Play play, List<String> expected) {

        @Override
        public String toString() {
            return name;
        }

        /** The breaker's name: one per scenario, so that scenarios on one server never meet. */
        String breaker() {
            return name.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-");
        }
    }

    @FunctionalInterface
    interface Play {
        void on(Fleet fleet) throws Exception;
    }

    static Stream<Scenario> scenarios() {
        return Stream.of(
                new Scenario(
                        "the first trip fixes the reopen time",
                        CONFIG,
                        fleet -> {
                            fleet.failures();
                            // i1 has not heard of the trip yet (its cache is younger than the TTL): its
                            // call goes through, fails, and is reported to an OPEN fleet.
                            long gap = 400;
                            Thread.sleep(gap);
                            fleet.fail(1, "0.4 s later");
                            long i0 = fleet.breaker(0).getRemainingWaitNanos();
                            long i1 = fleet.breaker(1).getRemainingWaitNanos();
                            fleet.note("reopen time kept: "
                                    + (Math.abs(i1 - i0) < TimeUnit.MILLISECONDS.toNanos(gap / 2)));
                            fleet.allSee(State.OPEN);
                        },
                        List.of(
                                "i0 fails: CLOSED",
                                "i1 fails: CLOSED",
                                "i2 fails: CLOSED",
                                "i0 fails: OPEN",
                                "i1 fails 0.4 s later: OPEN",
                                "reopen time kept: true",
                                "all OPEN (FAILURE_RATE)")),
                new Scenario(
                        "one probe among the instances, its success closes",
                        CONFIG,
                        fleet -> {
                            long tripped = fleet.trip();
                            Probe probe = fleet.probe(tripped, WAIT, 0, 1, 2);
                            probe.succeeds();
                            fleet.allSee(State.CLOSED);
                        },
                        concat(
                                TRIP,
                                "probes admitted: 1, after the wait: true",
                                "probe succeeds: CLOSED",
                                "all CLOSED (PROBES_SUCCEEDED)")),
                new Scenario(
                        "a failed probe reopens for a longer wait",
                        CONFIG.toBuilder()
                                .waitMultiplier(2)
                                .maxWaitDurationInOpenState(WAIT.multipliedBy(4))
                                .build(),
                        fleet -> {
                            fleet.failures();
                            long tripped = System.nanoTime();
                            fleet.noteWait(0, "the trip");
                            fleet.allSee(State.OPEN);
                            Probe first = fleet.probe(tripped, WAIT, 0, 1, 2);
                            long reopened = first.fails();
                            fleet.noteWait(first.holder, "the failed probe");
                            fleet.allSee(State.OPEN);
                            Probe second = fleet.probe(reopened, WAIT.multipliedBy(2), 0, 1, 2);
                            second.succeeds();
                            fleet.allSee(State.CLOSED);
                        },
                        concat(
                                FAILURES,
                                "wait after the trip: 2.5 s (CONFIGURED)",
                                "all OPEN (FAILURE_RATE)",
                                "probes admitted: 1, after the wait: true",
                                "probe fails: OPEN",
                                "wait after the failed probe: 5.0 s (BACKOFF)",
                                // The others never left OPEN: their last transition is still the trip.
                                "all OPEN (FAILURE_RATE, PROBE_FAILED)",
                                "probes admitted: 1, after the wait: true",
                                "probe succeeds: CLOSED",
                                "all CLOSED (PROBES_SUCCEEDED)")),
                new Scenario(
                        "only the lease holder closes",
                        CONFIG,
                        fleet -> {
                            // i2's call began before the trip; it succeeds while i0 or i1 holds the lease.
                            long early = fleet.breaker(2).tryAcquirePermit();
                            assertThat(early).isNotEqualTo(CircuitBreaker.NO_PERMIT);
                            long tripped = fleet.trip();
                            Probe probe = fleet.probe(tripped, WAIT, 0, 1);
                            fleet.breaker(2).onSuccess(early, 0L);
                            fleet.note("i2's call from before the trip succeeds: "
                                    + fleet.breaker(2).getState());
                            fleet.holderAndOthersSee(probe.holder, Duration.ofSeconds(1));
                            probe.succeeds();
                            fleet.allSee(State.CLOSED);
                        },
                        concat(
                                TRIP,
                                "probes admitted: 1, after the wait: true",
                                "i2's call from before the trip succeeds: OPEN",
                                "for 1.0 s: the holder HALF_OPEN, the others OPEN",
                                "probe succeeds: CLOSED",
                                "all CLOSED (PROBES_SUCCEEDED)")),
                new Scenario(
                        "a lease that runs out is taken over",
                        CONFIG.toBuilder().probeLease(LEASE).build(),
                        fleet -> {
                            long tripped = fleet.trip();
                            Probe first = fleet.probe(tripped, WAIT, 0, 1);
                            // The holder's probe never reports within its lease: another instance takes it over.
                            int[] others = IntStream.range(0, INSTANCES)
                                    .filter(i -> i != first.holder)
                                    .toArray();
                            Probe second = fleet.probe(first.admittedAt, LEASE, others);
                            first.succeeds("the first holder's late success");
                            // Shorter than what is left of the second lease.
                            fleet.holderAndOthersSee(second.holder, Duration.ofMillis(500));
                            second.succeeds();
                            fleet.allSee(State.CLOSED);
                        },
                        concat(
                                TRIP,
                                "probes admitted: 1, after the wait: true",
                                "probes admitted: 1, after the wait: true",
                                "the first holder's late success: OPEN",
                                "for 0.5 s: the holder HALF_OPEN, the others OPEN",
                                "probe succeeds: CLOSED",
                                "all CLOSED (PROBES_SUCCEEDED)")),
                new Scenario(
                        "operator actions are seen by all",
                        CONFIG,
                        fleet -> {
                            fleet.trip();
                            fleet.operate(1, State.FORCED_CLOSED);
                            fleet.allSee(State.FORCED_CLOSED);
                            fleet.operate(2, State.FORCED_OPEN);
                            fleet.allSee(State.FORCED_OPEN);
                            fleet.operate(0, State.CLOSED);
                            fleet.allSee(State.CLOSED);
                        },
                        concat(
                                TRIP,
                                "i1 forces closed: FORCED_CLOSED, fleet CHANGED",
                                "all FORCED_CLOSED (OPERATOR)",
                                "i2 forces open: FORCED_OPEN, fleet CHANGED",
                                "all FORCED_OPEN (OPERATOR)",
                                "i0 releases: CLOSED, fleet CHANGED",
                                "all CLOSED (OPERATOR)")),
                new Scenario(
                        "an operator action on a fleet already in its target keeps the window",
                        CONFIG,
                        fleet -> {
                            fleet.fail(0, null);
                            fleet.fail(1, null);
                            fleet.fail(2, null);
                            fleet.operate(1, State.CLOSED);
                            fleet.fail(2, null);
                            fleet.allSee(State.OPEN);
                            fleet.operate(0, State.FORCED_OPEN);
                            fleet.operate(2, State.FORCED_OPEN);
                            fleet.allSee(State.FORCED_OPEN);
                        },
                        List.of(
                                "i0 fails: CLOSED",
                                "i1 fails: CLOSED",
                                "i2 fails: CLOSED",
                                "i1 releases: CLOSED, fleet UNCHANGED",
                                "i2 fails: OPEN",
                                "all OPEN (FAILURE_RATE)",
                                "i0 forces open: FORCED_OPEN, fleet CHANGED",
                                "i2 forces open: FORCED_OPEN, fleet UNCHANGED",
                                "all FORCED_OPEN (OPERATOR)")),
                new Scenario(
                        "the newest operator action wins over an older one that arrives late",
                        CONFIG,
                        fleet -> {
                            fleet.relay.hold();
                            fleet.operate(0, State.FORCED_OPEN, "(no answer in time)");
                            fleet.operate(1, State.CLOSED);
                            fleet.relay.pass(); // the store gets i0's action after i1's newer one
                            fleet.allSee(State.CLOSED);
                            fleet.allKeep(State.CLOSED, Duration.ofSeconds(1));
                        },
                        List.of(
                                "i0 forces open (no answer in time): FORCED_OPEN, fleet UNKNOWN",
                                "i1 releases: CLOSED, fleet UNCHANGED",
                                // i0 adopts the fleet's CLOSED, whose cause is still the one it was created
                                // with: i1's release only wrote its time. i1 and i2 never left CLOSED.
                                "all CLOSED (STORE_RESET, none)",
                                "for 1.0 s: all CLOSED")),
                new Scenario(
                        "a lost state is put back",
                        // Longer: the state is lost, and put back, before the wait ends.
                        CONFIG.toBuilder()
                                .waitDurationInOpenState(WAIT.multipliedBy(3))
                                .build(),
                        fleet -> {
                            long tripped = fleet.trip();
                            fleet.loseState();
                            fleet.allKeep(State.OPEN, Duration.ofSeconds(1));
                            // the instances call on: a refresh is what puts the state back
                            await(() -> "the state put back", () -> {
                                fleet.callAll();
                                return fleet.storedState() == State.OPEN;
                            });
                            fleet.note("the store holds OPEN again");
                            Probe probe = fleet.probe(tripped, WAIT.multipliedBy(3), 0, 1, 2);
                            probe.succeeds();
                            fleet.allSee(State.CLOSED);
                        },
                        concat(
                                TRIP,
                                "the store loses the state",
                                "for 1.0 s: all OPEN",
                                "the store holds OPEN again",
                                "probes admitted: 1, after the wait: true",
                                "probe succeeds: CLOSED",
                                "all CLOSED (PROBES_SUCCEEDED)")),
                new Scenario(
                        "a trip made alone while the store is silent reaches the fleet",
                        CONFIG,
                        fleet -> {
                            fleet.relay.hold(); // i0's store stops answering; i1's and i2's do not
                            for (int failure = 0; failure < 4; failure++) {
                                fleet.fail(0, "(store silent)");
                            }
                            long tripped = System.nanoTime();
                            fleet.note("i1, i2: " + fleet.states().subList(1, 3));
                            fleet.relay.pass();
                            fleet.allSee(State.OPEN);
                            Probe probe = fleet.probe(tripped, WAIT, 0, 1, 2);
                            probe.succeeds();
                            fleet.allSee(State.CLOSED);
                        },
                        List.of(
                                "i0 fails (store silent): CLOSED",
                                "i0 fails (store silent): CLOSED",
                                "i0 fails (store silent): CLOSED",
                                "i0 fails (store silent): OPEN",
                                "i1, i2: [CLOSED, CLOSED]",
                                "all OPEN (FAILURE_RATE)",
                                "probes admitted: 1, after the wait: true",
                                "probe succeeds: CLOSED",
                                "all CLOSED (PROBES_SUCCEEDED)")),
                new Scenario(
                        "slow calls trip",
                        CONFIG.toBuilder()
                                .slowCallRateThreshold(50)
                                .slowCallDurationThreshold(Duration.ofMillis(100))
                                .build(),
                        fleet -> {
                            for (int i : new int[] {0, 1, 2, 0}) {
                                fleet.slow(i);
                            }
                            fleet.allSee(State.OPEN);
                        },
                        List.of(
                                "i0 is slow: CLOSED",
                                "i1 is slow: CLOSED",
                                "i2 is slow: CLOSED",
                                "i0 is slow: OPEN",
                                "all OPEN (SLOW_CALL_RATE)")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("scenarios")
    void everyInstanceSeesTheSameOnRedisAndOnDynamoDb(Scenario scenario) throws Exception {
        // Both stores at once: the scenario waits for real time, the same time on both.
        ExecutorService plays = Executors.newFixedThreadPool(2);
        try {
            Future<List<String>> onRedis = plays.submit(() -> {
                try (RedisFleet fleet = new RedisFleet()) {
                    return fleet.play(scenario);
                }
            });
            Future<List<String>> onDynamo = plays.submit(() -> {
                try (DynamoFleet fleet = new DynamoFleet(dynamoStores)) {
                    return fleet.play(scenario);
                }
            });
            List<String> redis = outcome(onRedis, "Redis");
            List<String> dynamo = outcome(onDynamo, "DynamoDB");
            assertThat(dynamo).as("DynamoDB, against Redis").isEqualTo(redis);
            assertThat(redis).as("both stores, against the rule").isEqualTo(scenario.expected());
        } finally {
            plays.shutdownNow();
        }
    }

    private static List<String> outcome(Future<List<String>> play, String store) throws InterruptedException {
        try {
            return play.get(60, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw new AssertionError("on " + store + ": " + e.getCause().getMessage(), e.getCause());
        } catch (java.util.concurrent.TimeoutException e) {
            throw new AssertionError("on " + store + ": not played within 60s");
        }
    }

    static List<String> concat(List<String> first, String... then) {
        List<String> all = new ArrayList<>(first);
        all.addAll(List.of(then));
        return all;
    }

    /** One scenario's instances, and what they saw. i0 reaches its store through a relay that can hold its requests. */
    abstract static class Fleet {

        final HeldRelay relay;
        /** What each instance's store tells its {@code breakers} endpoint. */
        final List<SharedBreakers> views = new ArrayList<>();

        private final List<CircuitBreaker> breakers = new ArrayList<>();
        /** Each breaker's last transition, as its listener was told. */
        private final List<AtomicReference<Transition>> transitions = new ArrayList<>();

        private final List<String> seen = new ArrayList<>();

        Fleet(int storePort) throws IOException {
            relay = new HeldRelay(storePort);
        }

        List<String> play(Scenario scenario) throws Exception {
            for (BreakerRegistry registry : registries(scenario.config())) {
                CircuitBreaker breaker = registry.breaker(scenario.breaker());
                AtomicReference<Transition> last = new AtomicReference<>();
                breaker.addListener(new BreakerListener() {
                    @Override
                    public void onStateTransition(Transition transition) {
                        last.set(transition);
                    }

                    @Override
                    public boolean wantsCallDurations() {
                        return false;
                    }
                });
                breakers.add(breaker);
                transitions.add(last);
            }
            await(() -> "the stores' first answers", () -> warm(scenario.breaker()));
            try {
                scenario.play().on(this);
            } catch (AssertionError stuck) {
                // written down, so that the transcripts of both stores can be compared
                note("stopped: " + stuck.getMessage());
            }
            return seen;
        }

        abstract List<BreakerRegistry> registries(BreakerConfig config);

        abstract boolean warm(String breaker);

        /** The time of the newest operator action the store holds for {@code breaker}, 0 if none. */
        abstract long operatorAt(String breaker);

        /** The state the store holds for this scenario's breaker, {@code null} if none. */
        final State storedState() {
            String state = storedState(breakers.get(0).getName());
            return state == null ? null : State.valueOf(state);
        }

        abstract String storedState(String breaker);

        /** The store loses this scenario's breaker: Redis its keys (all of them), DynamoDB its item. */
        final void loseState() {
            loseState(breakers.get(0).getName());
            note("the store loses the state");
        }

        abstract void loseState(String breaker);

        CircuitBreaker breaker(int i) {
            return breakers.get(i);
        }

        void note(String line) {
            seen.add(line);
        }

        /** i0, i1, i2 and i0 fail: the fourth failure trips the fleet; all learn of it. Returns when it tripped. */
        long trip() throws InterruptedException {
            failures();
            long tripped = System.nanoTime();
            allSee(State.OPEN);
            return tripped;
        }

        /** i0, i1, i2 and i0 fail: the fourth failure trips the fleet. */
        void failures() {
            for (int i : new int[] {0, 1, 2, 0}) {
                fail(i, null);
            }
        }

        void fail(int i, String when) {
            CircuitBreaker breaker = breakers.get(i);
            String who = "i" + i + " fails" + (when == null ? "" : " " + when);
            long permit = breaker.tryAcquirePermit();
            if (permit == CircuitBreaker.NO_PERMIT) {
                note(who + ": rejected, " + breaker.getState());
                return;
            }
            breaker.onError(permit, 0L, new IOException("dependency down"));
            note(who + ": " + breaker.getState());
        }

        void slow(int i) {
            CircuitBreaker breaker = breakers.get(i);
            long permit = breaker.tryAcquirePermit();
            assertThat(permit).isNotEqualTo(CircuitBreaker.NO_PERMIT);
            breaker.onSuccess(permit, Duration.ofMillis(200).toNanos());
            note("i" + i + " is slow: " + breaker.getState());
        }

        /**
         * Instance {@code i} sets {@code target} for the fleet, and the scenario goes on once the store
         * has taken the action. An action answered late (on a loaded machine) could otherwise land after
         * the scenario's next step: a release after a trip that followed it would close the fleet again.
         */
        void operate(int i, State target) throws InterruptedException {
            String name = breakers.get(i).getName();
            long before = operatorAt(name);
            Thread.sleep(2); // a later millisecond than the action before
            operate(i, target, null);
            await(() -> "the store taking i" + i + "'s action", () -> operatorAt(name) > before);
        }

        /** Instance {@code i} sets {@code target} for the fleet, not waiting for more than the store's answer in time. */
        void operate(int i, State target, String how) {
            CircuitBreaker breaker = breakers.get(i);
            String action = switch (target) {
                case FORCED_OPEN -> {
                    breaker.forceOpen();
                    yield "forces open";
                }
                case FORCED_CLOSED -> {
                    breaker.forceClosed();
                    yield "forces closed";
                }
                case CLOSED -> {
                    breaker.release();
                    yield "releases";
                }
                default -> throw new IllegalArgumentException(target.name());
            };
            FleetChange fleetChange = views.get(i).lastOperatorChange(breaker.getName());
            note("i" + i + " " + action + (how == null ? "" : " " + how) + ": " + breaker.getState() + ", fleet "
                    + (fleetChange == null ? "not asked" : fleetChange.name()));
        }

        /** The wait instance {@code i} read after {@code event}, to the half second, and its reason. */
        void noteWait(int i, String event) {
            CircuitBreaker breaker = breakers.get(i);
            double halves = Math.round(breaker.getRemainingWaitNanos() / 5e8);
            note(String.format(Locale.ROOT, "wait after %s: %.1f s (%s)", event, halves / 2, breaker.getWaitReason()));
        }

        /**
         * The {@code candidates} call, round after round, until one is admitted as the probe; a few
         * more rounds follow while that probe runs (nobody else may be admitted). Notes whether the
         * probe came at least {@code wait} after {@code since} (System.nanoTime).
         */
        Probe probe(long since, Duration wait, int... candidates) throws InterruptedException {
            int holder = -1;
            long permit = CircuitBreaker.NO_PERMIT;
            long admittedAt = 0;
            int admitted = 0;
            long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            int roundsAfter = 0;
            while (roundsAfter < 5) {
                for (int i : candidates) {
                    CircuitBreaker breaker = breakers.get(i);
                    long p = breaker.tryAcquirePermit();
                    if (p != CircuitBreaker.NO_PERMIT) {
                        admitted++;
                        if (holder < 0) {
                            holder = i;
                            permit = p;
                            admittedAt = System.nanoTime();
                        } else {
                            breaker.onSuccess(p, 0L);
                        }
                    }
                }
                if (holder >= 0) {
                    roundsAfter++;
                } else if (System.nanoTime() > deadline) {
                    throw new AssertionError("no instance was admitted as the probe within 20s");
                }
                Thread.sleep(100);
            }
            note("probes admitted: " + admitted + ", after the wait: "
                    + (admittedAt - since >= wait.minus(SLACK).toNanos()));
            return new Probe(this, holder, permit, admittedAt);
        }

        /**
         * For {@code time}, every instance but the holder of the lease calls (and refreshes): the
         * holder must read HALF_OPEN and the others OPEN all along.
         */
        void holderAndOthersSee(int holder, Duration time) throws InterruptedException {
            long end = System.nanoTime() + time.toNanos();
            List<String> wrong = new ArrayList<>();
            while (System.nanoTime() < end && wrong.isEmpty()) {
                for (int i = 0; i < breakers.size(); i++) {
                    CircuitBreaker breaker = breakers.get(i);
                    if (i != holder) {
                        long permit = breaker.tryAcquirePermit();
                        if (permit != CircuitBreaker.NO_PERMIT) {
                            breaker.onSuccess(permit, 0L);
                        }
                    }
                    State expected = i == holder ? State.HALF_OPEN : State.OPEN;
                    if (breaker.getState() != expected) {
                        wrong.add("i" + i + " " + breaker.getState());
                    }
                }
                Thread.sleep(50);
            }
            note(String.format(
                    Locale.ROOT,
                    "for %.1f s: the holder HALF_OPEN, the others OPEN%s",
                    time.toMillis() / 1000.0,
                    wrong.isEmpty() ? "" : ", but " + wrong));
        }

        /** Every instance makes a call (which refreshes its cached state if it is a TTL old); those admitted succeed. */
        void callAll() {
            for (CircuitBreaker breaker : breakers) {
                long permit = breaker.tryAcquirePermit();
                if (permit != CircuitBreaker.NO_PERMIT) {
                    breaker.onSuccess(permit, 0L);
                }
            }
        }

        /** Every instance's state, in order. */
        List<State> states() {
            return breakers.stream().map(CircuitBreaker::getState).toList();
        }

        /** For {@code time}, every instance calls (and refreshes) and must read {@code state} all along. */
        void allKeep(State state, Duration time) throws InterruptedException {
            long end = System.nanoTime() + time.toNanos();
            List<String> wrong = new ArrayList<>();
            while (System.nanoTime() < end && wrong.isEmpty()) {
                for (int i = 0; i < breakers.size(); i++) {
                    CircuitBreaker breaker = breakers.get(i);
                    long permit = breaker.tryAcquirePermit();
                    if (permit != CircuitBreaker.NO_PERMIT) {
                        breaker.onSuccess(permit, 0L);
                    }
                    if (breaker.getState() != state) {
                        wrong.add("i" + i + " " + breaker.getState());
                    }
                }
                Thread.sleep(50);
            }
            note(String.format(
                    Locale.ROOT,
                    "for %.1f s: all %s%s",
                    time.toMillis() / 1000.0,
                    state,
                    wrong.isEmpty() ? "" : ", but " + wrong));
        }

        /**
         * Calls every instance (a call is what refreshes a cached state) until all read {@code state};
         * notes the causes of the transitions that took them there.
         */
        void allSee(State state) throws InterruptedException {
            await(() -> "all " + state + ", but saw " + states(), () -> {
                callAll();
                return IntStream.range(0, breakers.size()).allMatch(i -> {
                    Transition last = transitions.get(i).get();
                    // an instance that never left CLOSED has no transition
                    return breakers.get(i).getState() == state
                            && (last == null ? state == State.CLOSED : last.to() == state);
                });
            });
            String causes = transitions.stream()
                    .map(last ->
                            last.get() == null ? "none" : last.get().cause().name())
                    .distinct()
                    .sorted()
                    .collect(Collectors.joining(", "));
            note("all " + state + " (" + causes + ")");
        }
    }

    /** A probe admitted: which instance holds it, and when. */
    record Probe(Fleet fleet, int holder, long permit, long admittedAt) {

        void succeeds() {
            succeeds("probe succeeds");
        }

        void succeeds(String what) {
            CircuitBreaker prober = fleet.breaker(holder);
            prober.onSuccess(permit, 0L);
            fleet.note(what + ": " + prober.getState());
        }

        /** Returns when it failed (System.nanoTime). */
        long fails() {
            CircuitBreaker prober = fleet.breaker(holder);
            prober.onError(permit, 0L, new IOException("still down"));
            long failed = System.nanoTime();
            fleet.note("probe fails: " + prober.getState());
            return failed;
        }
    }

    static void await(Supplier<String> what, BooleanSupplier condition) throws InterruptedException {
        long end = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > end) {
                throw new AssertionError(what.get() + ": not within 10s");
            }
            Thread.sleep(10);
        }
    }

    private static final class RedisFleet extends Fleet implements AutoCloseable {

        private final List<LettuceConnectionFactory> factories = new ArrayList<>();
        private final List<RedisStateStore> stores = new ArrayList<>();

        RedisFleet() throws IOException {
            super(REDIS.port());
            RedisStoreSettings settings = new RedisStoreSettings(
                    TTL, TIMEOUT, StoreFailureMode.PROTECT_LOCALLY, Duration.ofDays(1), OUTAGE_AFTER);
            for (int i = 0; i < INSTANCES; i++) {
                LettuceConnectionFactory factory = new LettuceConnectionFactory(
                        new RedisStandaloneConfiguration("127.0.0.1", i == 0 ? relay.port() : REDIS.port()),
                        LettuceClientConfiguration.builder()
                                .commandTimeout(Duration.ofSeconds(10))
                                .build());
                factory.afterPropertiesSet();
                factory.start();
                try (var connection = factory.getConnection()) {
                    connection.ping(); // the client's connection is open before the first timed operation
                }
                factories.add(factory);
                RedisStateStore store = new RedisStateStore(factory, settings);
                stores.add(store);
                views.add(new RedisSharedBreakers(store));
            }
        }

        @Override
        List<BreakerRegistry> registries(BreakerConfig config) {
            return registriesOn(stores, config);
        }

        @Override
        boolean warm(String breaker) {
            try {
                return REDIS.command("EXISTS", "{breaker:" + breaker + "}:state")
                                .contains("1")
                        && stores.stream().allMatch(store -> store.getFailureCount() == 0);
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }

        @Override
        long operatorAt(String breaker) {
            try {
                // a bulk string ("$13", the digits) or none ("$-1")
                String[] reply = REDIS.command("HGET", "{breaker:" + breaker + "}:state", "op_at")
                        .split("\r\n");
                return reply.length < 2 ? 0 : Long.parseLong(reply[1].trim());
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }

        @Override
        String storedState(String breaker) {
            try {
                String[] reply = REDIS.command("HGET", "{breaker:" + breaker + "}:state", "state")
                        .split("\r\n");
                return reply.length < 2 ? null : reply[1].trim();
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }

        @Override
        void loseState(String breaker) {
            try {
                assertThat(REDIS.command("FLUSHALL")).startsWith("+OK");
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }

        @Override
        public void close() {
            stores.forEach(RedisStateStore::close);
            factories.forEach(factory -> {
                factory.stop();
                factory.destroy();
            });
            relay.close();
        }
    }

    private static final class DynamoFleet extends Fleet implements AutoCloseable {

        private final DynamoStores on;
        private final List<DynamoStateStore> stores = new ArrayList<>();
        private final DynamoDbClient relayed;

        DynamoFleet(DynamoStores on) throws IOException {
            super(DYNALITE.port());
            this.on = on;
            DynamoStoreSettings settings = on.settings(TTL, TIMEOUT, StoreFailureMode.PROTECT_LOCALLY, OUTAGE_AFTER);
            relayed = DynamoDbClient.builder()
                    .endpointOverride(URI.create("http://127.0.0.1:" + relay.port()))
                    .region(Region.US_EAST_1)
                    .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test")))
                    .overrideConfiguration(c -> c.apiCallTimeout(Duration.ofSeconds(10)))
                    .build();
            stores.add(on.store(relayed, settings));
            for (int i = 1; i < INSTANCES; i++) {
                stores.add(on.store(settings));
            }
            stores.forEach(store -> views.add(new DynamoSharedBreakers(store)));
        }

        @Override
        List<BreakerRegistry> registries(BreakerConfig config) {
            return registriesOn(stores, config);
        }

        @Override
        boolean warm(String breaker) {
            return stores.stream().allMatch(DynamoStateStore::isWarm);
        }

        @Override
        long operatorAt(String breaker) {
            AttributeValue at = on.item(breaker).get(ItemLayout.OPERATOR_AT);
            return at == null ? 0 : Long.parseLong(at.n());
        }

        @Override
        String storedState(String breaker) {
            AttributeValue state = on.item(breaker).get(ItemLayout.STATE);
            return state == null ? null : state.s();
        }

        @Override
        void loseState(String breaker) {
            DYNALITE.client()
                    .deleteItem(request ->
                            request.tableName(on.table()).key(Map.of(ItemLayout.KEY, AttributeValue.fromS(breaker))));
        }

        @Override
        public void close() throws InterruptedException {
            // Requests still on their way end first: dynalite exits when a client drops one it is serving.
            Thread.sleep(500);
            stores.forEach(DynamoStateStore::close);
            relayed.close();
            relay.close();
        }
    }

    /** Instances of one application: each its own store and registry. */
    private static List<BreakerRegistry> registriesOn(List<? extends StateStore> stores, BreakerConfig config) {
        return stores.stream()
                .map(store -> BreakerRegistry.of(config, Map.of(), NanoClock.system(), store))
                .toList();
    }
}
