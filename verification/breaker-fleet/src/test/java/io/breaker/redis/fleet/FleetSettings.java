package io.breaker.redis.fleet;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * What a fleet run does, from system properties; the defaults are the short run CI makes.
 *
 * <pre>
 * -Dfleet.instances=3          separate JVM processes
 * -Dfleet.rounds=3             rounds without a fault
 * -Dfleet.store=redis          redis (shared state) or memory (each instance alone, the baseline);
 *                              a DynamoDB run is its own test (see throughDynamoFromSystemProperties)
 * -Dfleet.faults=restart       none, all, or a comma list of pause-healthy, pause-trip, pause-open, restart
 * -Dfleet.wait=3s              wait-duration-in-open-state of every instance
 * -Dfleet.store-timeout=50ms   breakers.store.timeout of every instance (the latency goal uses it)
 * -Dfleet.assert=true          false: only write the report
 * -Dfleet.jvm-args="-Xmx128m -XX:+UseSerialGC"
 * -Dfleet.warm-up=0s           healthy traffic on every instance before the first round (its cost is measured too)
 * </pre>
 */
record FleetSettings(
        int instances,
        int rounds,
        String store,
        List<Fault> faults,
        Duration openWait,
        Duration storeTimeout,
        boolean asserting,
        List<String> jvmArgs,
        Duration warmUp) {

    /** The breaker's settings, the same on every instance of the consumer application. */
    static final int WINDOW_SIZE = 10;

    static final int MINIMUM_CALLS = 5;
    static final int FAILURE_RATE_THRESHOLD = 50;
    static final int WARM_UP_CALLS = 20;
    static final String JVM_ARGS = "-Xmx128m -XX:+UseSerialGC";

    /** Whether the instances share their breaker through a store (Redis or DynamoDB), not each alone in memory. */
    boolean shared() {
        return !store.equals("memory");
    }

    /** Settings without warm-up traffic. */
    FleetSettings(
            int instances,
            int rounds,
            String store,
            List<Fault> faults,
            Duration openWait,
            Duration storeTimeout,
            boolean asserting,
            List<String> jvmArgs) {
        this(instances, rounds, store, faults, openWait, storeTimeout, asserting, jvmArgs, Duration.ZERO);
    }

    static FleetSettings fromSystemProperties() {
        String store = property("fleet.store", "redis").toLowerCase(Locale.ROOT);
        if (!store.equals("redis") && !store.equals("memory")) {
            throw new IllegalArgumentException("fleet.store must be redis or memory, not " + store);
        }
        return fromSystemProperties(store, "3", "restart", "50ms", "0s");
    }

    /**
     * The run through a DynamoDB table ({@code fleet.store} is not read): the same properties, other
     * defaults. 4 instances after 10 s of warm-up traffic; faults {@code pause-healthy,pause-trip,restart};
     * a store timeout of 200 ms, the store's own default (a table answers in milliseconds where Redis
     * answers in fractions of one).
     */
    static FleetSettings throughDynamoFromSystemProperties() {
        return fromSystemProperties("dynamodb", "4", "pause-healthy,pause-trip,restart", "200ms", "10s");
    }

    private static FleetSettings fromSystemProperties(
            String store, String instances, String faults, String storeTimeout, String warmUp) {
        return new FleetSettings(
                Integer.parseInt(property("fleet.instances", instances)),
                Integer.parseInt(property("fleet.rounds", "3")),
                store,
                faults(property("fleet.faults", faults)),
                duration(property("fleet.wait", "3s")),
                duration(property("fleet.store-timeout", storeTimeout)),
                Boolean.parseBoolean(property("fleet.assert", "true")),
                jvmArgsProperty(),
                duration(property("fleet.warm-up", warmUp)));
    }

    /**
     * A fleet sharing its breaker through Redis, for a test that drives the instances itself (no rounds,
     * no faults); only {@code -Dfleet.jvm-args} is read from the system properties.
     */
    static FleetSettings sharedThroughRedis(int instances, Duration openWait, Duration storeTimeout) {
        return new FleetSettings(instances, 0, "redis", List.of(), openWait, storeTimeout, true, jvmArgsProperty());
    }

    /** The same through a DynamoDB table. */
    static FleetSettings sharedThroughDynamo(int instances, Duration openWait, Duration storeTimeout) {
        return new FleetSettings(instances, 0, "dynamodb", List.of(), openWait, storeTimeout, true, jvmArgsProperty());
    }

    private static List<String> jvmArgsProperty() {
        return Arrays.asList(property("fleet.jvm-args", JVM_ARGS).trim().split("\\s+"));
    }

    /**
     * Failures the shared window needs to trip once warm-up filled it with successes: one in-memory
     * breaker seeing every call of the fleet would trip after this many.
     */
    int threshold() {
        return Math.max(MINIMUM_CALLS, (int) Math.ceil(WINDOW_SIZE * FAILURE_RATE_THRESHOLD / 100.0));
    }

    /** The goal for one round: the threshold, plus one call already under way on each other instance. */
    int tripGoal() {
        return threshold() + instances - 1;
    }

    String describe() {
        return "instances=" + instances + ", rounds=" + rounds + ", store=" + store + ", faults="
                + (faults.isEmpty() ? "none" : faults.stream().map(Fault::label).toList()) + ", wait="
                + openWait.toMillis() + "ms, store-timeout=" + storeTimeout.toMillis() + "ms, assert=" + asserting
                + ", jvm-args=" + String.join(" ", jvmArgs)
                + (warmUp.isZero() ? "" : ", warm-up=" + warmUp.toMillis() + "ms") + "; breaker: count window "
                + WINDOW_SIZE
                + ", minimum calls " + MINIMUM_CALLS + ", failure rate threshold " + FAILURE_RATE_THRESHOLD
                + "%, " + WARM_UP_CALLS + " warm-up calls per instance";
    }

    private static List<Fault> faults(String value) {
        String trimmed = value.trim().toLowerCase(Locale.ROOT);
        if (trimmed.equals("none") || trimmed.isEmpty()) {
            return List.of();
        }
        if (trimmed.equals("all")) {
            // Every fault of one redis-server: a failover needs a Sentinel set-up (SentinelFailoverFleetTest).
            return Arrays.stream(Fault.values())
                    .filter(fault -> fault != Fault.FAILOVER)
                    .toList();
        }
        List<Fault> faults = new ArrayList<>();
        for (String label : trimmed.split(",")) {
            faults.add(Fault.of(label.trim()));
        }
        return faults;
    }

    /** {@code 3s}, {@code 500ms} or a number of milliseconds. */
    static Duration duration(String value) {
        String trimmed = value.trim().toLowerCase(Locale.ROOT);
        if (trimmed.endsWith("ms")) {
            return Duration.ofMillis(Long.parseLong(trimmed.substring(0, trimmed.length() - 2)));
        }
        if (trimmed.endsWith("s")) {
            return Duration.ofMillis(Math.round(Double.parseDouble(trimmed.substring(0, trimmed.length() - 1)) * 1000));
        }
        return Duration.ofMillis(Long.parseLong(trimmed));
    }

    private static String property(String name, String fallback) {
        String value = System.getProperty(name);
        return value == null || value.isBlank() ? fallback : value;
    }
}
