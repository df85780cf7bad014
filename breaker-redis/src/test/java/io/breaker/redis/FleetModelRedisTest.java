package io.breaker.redis;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import io.breaker.redis.FleetWorld.Op;
import io.breaker.redis.FleetWorld.Rules;
import io.breaker.redis.FleetWorld.ScriptRun;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.luaj.vm2.LuaValue;
import org.slf4j.LoggerFactory;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.DefaultRedisScript;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The model's Redis (luaj + a fake {@code redis.call}) against a real redis-server: the scenarios the
 * explorer generates are run again, script call by script call, with EVAL on a real Redis, and the
 * replies and every key are compared after each call. The scripts run unchanged on real Redis except
 * for one line: their single clock reading ({@code redis.call('TIME')} in common.lua) reads the model's
 * time for that call from a key the test sets just before it. So the comparison is exact and does not
 * depend on how busy the machine is (it used to pace calls in real time and could not judge a
 * scenario when the scheduler was late).
 */
class FleetModelRedisTest {

    @RegisterExtension
    static final RedisServer server = new RedisServer();

    private static LettuceConnectionFactory factory;
    private static StringRedisTemplate redis;
    private static final Logger STORE_LOG = (Logger) LoggerFactory.getLogger(RedisStateStore.class);
    private static Level storeLevel;
    /** common.lua's one reading of Redis's clock; the comparison replaces it with the model's time. */
    static final String CLOCK_LINE = "local clock = redis.call('TIME')";

    private static final String MODEL_CLOCK_LINE = "local clock = redis.call('HMGET', KEYS[1] .. ':clock', 's', 'us')";

    @BeforeAll
    static void connect() {
        factory = new LettuceConnectionFactory(
                new RedisStandaloneConfiguration("127.0.0.1", server.port()), Fleet.CLIENT);
        factory.afterPropertiesSet();
        factory.start();
        redis = new StringRedisTemplate(factory);
        storeLevel = STORE_LOG.getLevel();
        STORE_LOG.setLevel(Level.OFF);
    }

    @AfterAll
    static void close() {
        STORE_LOG.setLevel(storeLevel);
        if (factory != null) {
            factory.destroy();
        }
    }

    /** Lua 5.1 (Redis) and the model's luaj agree on the number formatting the scripts rely on. */
    @Test
    void numbersAreFormattedAsRedissLuaFormatsThem() {
        String probe = "local r = {} ; local function p(x) r[#r+1] = x end\n"
                + "for _, v in ipairs({0, 5, 1700000000123, 1700000000123.0, 2^53, 1e15, 1e14, 99999999999999, 1.5, 2.5,"
                + " 3.5, -0.5, 123456789012345678, 0.1, -7}) do\n"
                + "  p(string.format('%.0f', v)); p(tostring(v)); p(string.format('%d', v)); p(string.format('%s', v))\n"
                + "  p(string.format('%.3f', v)); p(string.format('%g', v))\n"
                + "end\n"
                + "p(tostring(tonumber('3'))); p(tostring(tonumber('3') + 1)); p(tostring(tonumber(false)))\n"
                + "p(tostring(math.floor(1234567 / 1000))); p(tostring(10 / 2)); p(tostring(7 % 3))\n"
                + "return r";
        Object real = redis.execute(new DefaultRedisScript<>(probe, List.class), List.of());
        Object model = new LuaRedis(() -> FleetWorld.START_MS).eval(probe, List.of(), List.of());
        assertThat(model).isEqualTo(real);
    }

    /** Every script call of the sampled scenarios answers and leaves Redis as the model says. */
    @Test
    void theScenariosOfTheExplorerGiveTheSameRepliesAndStatesOnARealRedis() throws Exception {
        Map<String, List<ScriptRun>> scenarios = new LinkedHashMap<>();
        int more = Integer.getInteger("fleet.compare", 1); // -Dfleet.compare=10 compares ten times as many
        collect(scenarios, List.of(), FleetModelTest.SYNCED, 3, Math.max(1, 20 / more));
        collect(scenarios, List.of(), FleetModelTest.OPEN, 3, Math.max(1, 40 / more));
        collect(scenarios, List.of(), FleetModelTest.DUE, 3, Math.max(1, 60 / more));
        collect(scenarios, List.of(), FleetModelTest.PROBING, 2, Math.max(1, 4 / more));
        collect(scenarios, List.of(), FleetModelTest.OPERATED, 2, Math.max(1, 4 / more));
        List<String> mismatches = compareAll(scenarios);
        assertThat(mismatches)
                .as("scenarios where luaj and redis-server differ")
                .isEmpty();
        // every command the fake implements was exercised, so each one was compared
        assertThat(LuaRedis.COMMANDS_SEEN.keySet())
                .contains(
                        "HMGET",
                        "HSET",
                        "HDEL",
                        "HINCRBY",
                        "DEL",
                        "EXISTS",
                        "GET",
                        "SET",
                        "GETRANGE",
                        "SETRANGE",
                        "PEXPIRE",
                        "TIME");
    }

    /** The comparison can fail: a model running a mutated report.lua differs from Redis running the real one. */
    @Test
    void aModelThatRunsAnotherScriptDiffersFromRedis() throws Exception {
        Map<String, List<ScriptRun>> scenarios = new LinkedHashMap<>();
        collect(
                scenarios,
                List.of(new FleetWorld.Mutation("report", "tostring(win[2] or 0)", "tostring((win[2] or 0) + 1)")),
                FleetModelTest.SYNCED,
                1,
                1);
        List<String> mismatches = compareAll(scenarios);
        assertThat(mismatches).isNotEmpty().allSatisfy(m -> assertThat(m).contains("reply element 8"));
    }

    private static List<String> compareAll(Map<String, List<ScriptRun>> scenarios) throws Exception {
        System.out.printf(
                "[fleet-model] comparing %d scenarios (%d script calls) with redis-server%n",
                scenarios.size(),
                scenarios.values().stream().mapToInt(List::size).sum());
        long t0 = System.nanoTime();
        ExecutorService pool = Executors.newFixedThreadPool(6);
        AtomicInteger names = new AtomicInteger();
        List<Future<String>> results = new ArrayList<>();
        for (Map.Entry<String, List<ScriptRun>> scenario : scenarios.entrySet()) {
            results.add(pool.submit(() -> {
                String mismatch = compare(scenario.getValue(), "{breaker:d" + names.incrementAndGet() + "}");
                return mismatch == null ? null : scenario.getKey() + "\n" + mismatch;
            }));
        }
        List<String> mismatches = new ArrayList<>();
        for (Future<String> result : results) {
            String mismatch = result.get(5, TimeUnit.MINUTES);
            if (mismatch != null) {
                mismatches.add(mismatch);
            }
        }
        pool.shutdown();
        System.out.printf(
                "[fleet-model] compared in %d ms, %d differ%n",
                (System.nanoTime() - t0) / 1_000_000, mismatches.size());
        return mismatches;
    }

    /** The script calls of every world the explorer reaches at {@code depth} (one in {@code every}). */
    private static void collect(
            Map<String, List<ScriptRun>> into,
            List<FleetWorld.Mutation> mutations,
            List<Op> start,
            int depth,
            int every) {
        FleetExplorer explorer = new FleetExplorer(Rules.all(2), mutations, start);
        explorer.knownBugs = FleetModelTest.KNOWN_BUGS;
        explorer.keepGoing = true; // the comparison is about the scripts, whatever the invariants say
        AtomicInteger n = new AtomicInteger();
        explorer.leafSink = world -> {
            if (n.getAndIncrement() % every != 0) {
                return;
            }
            StringBuilder key = new StringBuilder();
            for (ScriptRun run : world.runs) {
                key.append(run.now())
                        .append(' ')
                        .append(run.script())
                        .append(' ')
                        .append(run.args())
                        .append('\n');
            }
            into.putIfAbsent(key.toString(), List.copyOf(world.runs));
        };
        explorer.explore(depth);
    }

    /**
     * Runs one scenario on real Redis under its own hash tag, each call at the model's time: the first
     * difference, or null.
     */
    private static String compare(List<ScriptRun> runs, String tag) {
        Map<String, String> incs = new HashMap<>();
        Map<String, String> modelIncs = new HashMap<>();
        try {
            for (int i = 0; i < runs.size(); i++) {
                ScriptRun run = runs.get(i);
                if (run.script().equals("FLUSH")) {
                    redis.delete(allKeys(tag));
                    continue;
                }
                List<String> runKeys = new ArrayList<>();
                for (String k : run.keys()) {
                    runKeys.add(k.replace(FleetWorld.TAG, tag));
                }
                String text = FleetWorld.SCRIPTS_BY_NAME.get(run.script());
                if (!text.contains(CLOCK_LINE)) {
                    throw new IllegalStateException("common.lua no longer reads the clock as `" + CLOCK_LINE
                            + "`: the comparison cannot set Redis's time to the model's");
                }
                text = text.replace(CLOCK_LINE, MODEL_CLOCK_LINE);
                // TIME's answer at the model's time; the microseconds tell the incarnations of one millisecond apart.
                redis.opsForHash()
                        .putAll(
                                runKeys.get(0) + ":clock",
                                Map.of(
                                        "s", Long.toString(Math.floorDiv(run.now(), 1000)),
                                        "us", Long.toString(Math.floorMod(run.now(), 1000) * 1000 + i % 1000)));
                // An incarnation the scripts answered earlier travels back in reports: the real one stands in for the
                // model's.
                List<String> args = new ArrayList<>();
                for (String arg : run.args()) {
                    String canon = modelIncs.get(arg);
                    String realInc = null;
                    for (Map.Entry<String, String> e : incs.entrySet()) {
                        if (e.getValue().equals(canon)) {
                            realInc = e.getKey();
                        }
                    }
                    args.add(realInc != null ? realInc : arg);
                }
                List<?> reply = redis.execute(new DefaultRedisScript<>(text, List.class), runKeys, args.toArray());
                String where = "after call " + (i + 1) + " (" + run.script() + " "
                        + run.args().subList(9, run.args().size()) + " at model +" + (run.now() - FleetWorld.START_MS)
                        + "ms): ";
                String diff = compareReply((List<?>) run.reply(), reply, modelIncs, incs);
                if (diff == null) {
                    diff = compareKeys(run.after(), dump(tag), modelIncs, incs, tag);
                }
                if (diff != null) {
                    return where + diff;
                }
            }
            return null;
        } finally {
            redis.delete(allKeys(tag));
            redis.delete(tag + ":state:clock");
        }
    }

    private static List<String> allKeys(String tag) {
        return List.of(
                tag + ":state", tag + ":window", tag + ":ring", tag + ":ack:i0", tag + ":ack:i1", tag + ":ack:i2");
    }

    private static TreeMap<String, Object> dump(String tag) {
        TreeMap<String, Object> out = new TreeMap<>();
        for (String key : allKeys(tag)) {
            String type = redis.type(key).code();
            if (type.equals("hash")) {
                Map<Object, Object> entries = redis.opsForHash().entries(key);
                TreeMap<String, String> hash = new TreeMap<>();
                entries.forEach((f, v) -> hash.put((String) f, (String) v));
                out.put(key, hash);
            } else if (type.equals("string")) {
                out.put(key, redis.opsForValue().get(key));
            }
        }
        return out;
    }

    private static String canonical(String inc, Map<String, String> names) {
        return inc == null ? null : names.computeIfAbsent(inc, k -> "inc" + names.size());
    }

    /** Replies: index 6 is the incarnation (compared by the order it first appeared in); the rest must be equal. */
    private static String compareReply(
            List<?> model, List<?> real, Map<String, String> modelIncs, Map<String, String> incs) {
        if (model.size() != real.size()) {
            return "reply " + model + " vs real " + real;
        }
        for (int k = 0; k < model.size(); k++) {
            String m = String.valueOf(model.get(k));
            String r = String.valueOf(real.get(k));
            boolean same = switch (k) {
                case 6 -> Objects.equals(canonical(m, modelIncs), canonical(r, incs));
                default -> m.equals(r);
            };
            if (!same) {
                return "reply element " + k + ": model " + m + ", real " + r + " (model " + model + ", real " + real
                        + ")";
            }
        }
        return null;
    }

    private static String compareKeys(
            TreeMap<String, Object> model,
            TreeMap<String, Object> real,
            Map<String, String> modelIncs,
            Map<String, String> incs,
            String tag) {
        TreeMap<String, Object> renamed = new TreeMap<>();
        model.forEach((k, v) -> renamed.put(k.replace(FleetWorld.TAG, tag), v));
        if (!renamed.keySet().equals(real.keySet())) {
            return "keys " + renamed.keySet() + " vs real " + real.keySet();
        }
        for (Map.Entry<String, Object> e : renamed.entrySet()) {
            Object r = real.get(e.getKey());
            if (e.getValue() instanceof Map<?, ?> hash) {
                Map<?, ?> realHash = (Map<?, ?>) r;
                if (!hash.keySet().equals(realHash.keySet())) {
                    return e.getKey() + " fields " + hash.keySet() + " vs real " + realHash.keySet();
                }
                for (Map.Entry<?, ?> f : hash.entrySet()) {
                    String field = (String) f.getKey();
                    String m = (String) f.getValue();
                    String rv = (String) realHash.get(field);
                    boolean same;
                    if (e.getKey().endsWith(":state") && field.equals("inc")) {
                        same = Objects.equals(canonical(m, modelIncs), canonical(rv, incs));
                    } else {
                        same = m.equals(rv);
                    }
                    if (!same) {
                        return e.getKey() + " " + field + ": model " + m + ", real " + rv + " (model " + hash
                                + ", real " + realHash + ")";
                    }
                }
            } else if (!e.getValue().equals(r)) {
                return e.getKey() + ": model " + LuaValue.valueOf(String.valueOf(e.getValue())) + ", real " + r;
            }
        }
        return null;
    }
}
