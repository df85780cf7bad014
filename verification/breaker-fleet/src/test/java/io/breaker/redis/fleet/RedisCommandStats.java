package io.breaker.redis.fleet;

import io.breaker.redis.RedisServer;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Redis's {@code INFO commandstats} at one moment: how many times each command ran and for how many
 * microseconds in all (wall-clock time: on a busy machine it includes the time the server waited for
 * a core). Redis counts a command a script runs under that command as well as the script under
 * {@code evalsha} (whose time includes its commands'), so {@link #calls()} is every command Redis
 * executed and {@link #scriptCalls()} the scripts the instances sent.
 *
 * @param runId    the server's {@code run_id}: a new one after a restart, whose counters start again
 * @param commands calls and microseconds per command name, as Redis names it ({@code evalsha},
 *                 {@code hmget}, {@code client|setname})
 */
record RedisCommandStats(String runId, Map<String, Command> commands) {

    /** One command's counters. */
    record Command(long calls, long micros) {}

    private static final Pattern LINE = Pattern.compile("cmdstat_([^:]+):calls=(\\d+),usec=(\\d+)");
    private static final Pattern RUN_ID = Pattern.compile("run_id:(\\w+)");
    /** The harness's own reads of these counters: not the fleet's load. */
    private static final String OWN = "info";

    /** Reads the counters of the test's redis-server. */
    static RedisCommandStats read(RedisServer redis) throws IOException {
        return parse(redis.command("INFO", "server", "commandstats"));
    }

    /**
     * The counters in an {@code INFO server commandstats} reply (lines {@code run_id:<id>} and
     * {@code cmdstat_<name>:calls=..,usec=..,...}).
     */
    static RedisCommandStats parse(String info) {
        Matcher runId = RUN_ID.matcher(info);
        Map<String, Command> commands = new LinkedHashMap<>();
        Matcher line = LINE.matcher(info);
        while (line.find()) {
            commands.put(line.group(1), new Command(Long.parseLong(line.group(2)), Long.parseLong(line.group(3))));
        }
        return new RedisCommandStats(runId.find() ? runId.group(1) : "", Map.copyOf(commands));
    }

    /**
     * What ran between {@code earlier} and this reading. After a restart in between (another run id)
     * this reading's counters are all there is: what the old server ran after {@code earlier} is lost.
     * A command counted less than before ({@code CONFIG RESETSTAT}) counts from zero as well.
     */
    RedisCommandStats since(RedisCommandStats earlier) {
        if (!runId.equals(earlier.runId)) {
            return this;
        }
        Map<String, Command> between = new LinkedHashMap<>();
        commands.forEach((name, now) -> {
            Command before = earlier.commands.getOrDefault(name, new Command(0, 0));
            between.put(
                    name,
                    now.calls() >= before.calls()
                            ? new Command(now.calls() - before.calls(), now.micros() - before.micros())
                            : now);
        });
        return new RedisCommandStats(runId, Map.copyOf(between));
    }

    /** Every command Redis executed, those inside scripts included, except the reads of these counters. */
    long calls() {
        return commands.entrySet().stream()
                .filter(entry -> !entry.getKey().equals(OWN))
                .mapToLong(entry -> entry.getValue().calls())
                .sum();
    }

    /** Scripts: {@code evalsha}, and {@code eval} for a script Redis did not know yet. */
    long scriptCalls() {
        return calls("evalsha") + calls("eval");
    }

    /** Microseconds Redis spent running scripts, their commands included. */
    long scriptMicros() {
        return micros("evalsha") + micros("eval");
    }

    long calls(String name) {
        Command command = commands.get(name);
        return command == null ? 0 : command.calls();
    }

    private long micros(String name) {
        Command command = commands.get(name);
        return command == null ? 0 : command.micros();
    }
}
