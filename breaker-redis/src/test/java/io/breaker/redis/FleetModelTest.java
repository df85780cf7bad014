package io.breaker.redis;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import io.breaker.State;
import io.breaker.redis.FleetWorld.Kind;
import io.breaker.redis.FleetWorld.Mutation;
import io.breaker.redis.FleetWorld.Op;
import io.breaker.redis.FleetWorld.Rules;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every interleaving of the fleet protocol, up to a depth, on the model of {@link FleetWorld}: real
 * breakers and RedisSharedState instances, the real Lua scripts in luaj. See docs/fleet-model.md.
 *
 * <p>The depths below fit the default build (about a minute on two cores, see the doc). A deeper
 * run: {@code -Dfleet.depth=N} adds N - 3 to every depth, e.g.
 * {@code ./mvnw -B -pl breaker-redis -am test -Dsurefire.failIfNoSpecifiedTests=false -Dtest=FleetModelTest -Dfleet.depth=5}.
 */
class FleetModelTest {

    static Op op(Kind kind, int instance) {
        return new Op(kind, instance, 0, 0);
    }

    /** Three instances that have each heard from the fleet once (CLOSED). */
    static final List<Op> SYNCED = List.of(op(Kind.REFRESH, 0), op(Kind.REFRESH, 1), op(Kind.REFRESH, 2));
    /** The fleet tripped (two failures) and every instance knows it. */
    static final List<Op> OPEN = concat(SYNCED, op(Kind.CALL_FAIL, 0), op(Kind.CALL_FAIL, 1), op(Kind.REFRESH, 2));
    /** ... and the wait is over. */
    static final List<Op> DUE = concat(OPEN, op(Kind.TIME, -1));

    static List<Op> concat(List<Op> start, Op... more) {
        List<Op> all = new ArrayList<>(start);
        all.addAll(List.of(more));
        return List.copyOf(all);
    }

    private static final Logger STORE_LOG = (Logger) LoggerFactory.getLogger(RedisStateStore.class);
    private static Level storeLevel;

    @BeforeAll
    static void quiet() {
        storeLevel = STORE_LOG.getLevel();
        STORE_LOG.setLevel(Level.OFF); // a lost state logs one WARN line per seed: millions here
    }

    @AfterAll
    static void restore() {
        STORE_LOG.setLevel(storeLevel);
    }

    /** The depth for this run: the default build's, plus what -Dfleet.depth asks beyond 3. */
    static int depth(int ci) {
        return ci + Math.max(0, Integer.getInteger("fleet.depth", 3) - 3);
    }

    static FleetExplorer explore(String title, Rules rules, List<Mutation> mutations, List<Op> start, int depth) {
        FleetExplorer explorer = new FleetExplorer(rules, mutations, start);
        long t0 = System.nanoTime();
        boolean failed = explorer.explore(depth);
        long ms = (System.nanoTime() - t0) / 1_000_000;
        System.out.printf("[fleet-model] %s: depth %d, %d worlds (%d pruned), %d steps, %d ms%s%n", title, depth,
                explorer.states, explorer.pruned, explorer.steps, ms, failed ? ", BROKEN: " + explorer.failure : "");
        if (failed) {
            explorer.shortenFailure();
        }
        return explorer;
    }

    static void assertHolds(FleetExplorer explorer) {
        if (explorer.failingTrace != null) {
            throw new AssertionError("broken: " + explorer.failure + "\nshortest trace:\n"
                    + explorer.describe(explorer.failingTrace));
        }
    }

    @Test
    void everyInterleavingFromASyncedFleet() {
        assertHolds(explore("all operations, synced CLOSED fleet", Rules.all(2), List.of(), SYNCED, depth(4)));
    }

    @Test
    void everyInterleavingFromAnOpenFleet() {
        assertHolds(explore("all operations, OPEN fleet", Rules.all(2), List.of(), OPEN, depth(3)));
    }

    @Test
    void everyInterleavingOnceTheWaitIsOver() {
        assertHolds(explore("all operations, OPEN fleet, wait over", Rules.all(2), List.of(), DUE, depth(4)));
    }

    @Test
    void aFailingDependencyIsCalledAtMostThresholdPlusInstancesMinusOneTimes() {
        assertHolds(explore("failing dependency", Rules.failingDependency(2), List.of(), SYNCED, depth(6)));
    }
}
