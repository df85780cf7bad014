package io.breaker.redis.fleet;

import java.util.Arrays;

/** A fault injected into the shared store under the running fleet, one per fault round. */
enum Fault {

    /** The store frozen (SIGSTOP) for 3 s while the dependency is healthy and traffic flows. */
    PAUSE_HEALTHY("pause-healthy", "%s paused 3 s during healthy traffic"),

    /** The store frozen for 3 s from the moment the dependency starts failing. */
    PAUSE_TRIP("pause-trip", "%s paused 3 s during the trip"),

    /** The store frozen for 3 s while the fleet is OPEN. */
    PAUSE_OPEN("pause-open", "%s paused 3 s while OPEN"),

    /** The store killed (SIGKILL) while the fleet is OPEN and started again without any data. */
    RESTART("restart", "%s killed and restarted empty while OPEN"),

    /**
     * Redis Sentinel: the master killed while the fleet is OPEN and traffic flows, until the sentinels
     * promote the replica (only with {@link StoreFaults#of(io.breaker.redis.RedisSentinel)}).
     */
    FAILOVER("failover", "Sentinel: master killed while OPEN, replica promoted");

    private final String label;
    private final String description;

    Fault(String label, String description) {
        this.label = label;
        this.description = description;
    }

    String label() {
        return label;
    }

    /** What the fault does to Redis, as a round's label. */
    String description() {
        return description("Redis");
    }

    /** What the fault does to the store run by {@code server} ("Redis", "dynalite"), as a round's label. */
    String description(String server) {
        return String.format(description, server);
    }

    static Fault of(String label) {
        return Arrays.stream(values())
                .filter(fault -> fault.label.equals(label))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown fault '" + label + "': one of "
                        + Arrays.stream(values()).map(Fault::label).toList()));
    }
}
