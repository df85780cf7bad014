package io.breaker.redis.fleet;

import java.util.Arrays;

/** A fault injected into Redis under the running fleet, one per fault round. */
enum Fault {

    /** Redis frozen (SIGSTOP) for 3 s while the dependency is healthy and traffic flows. */
    PAUSE_HEALTHY("pause-healthy", "Redis paused 3 s during healthy traffic"),

    /** Redis frozen for 3 s from the moment the dependency starts failing. */
    PAUSE_TRIP("pause-trip", "Redis paused 3 s during the trip"),

    /** Redis frozen for 3 s while the fleet is OPEN. */
    PAUSE_OPEN("pause-open", "Redis paused 3 s while OPEN"),

    /** Redis killed (SIGKILL) while the fleet is OPEN and started again without any data. */
    RESTART("restart", "Redis killed and restarted empty while OPEN"),

    /**
     * Redis Sentinel: the master killed while the fleet is OPEN and traffic flows, until the sentinels
     * promote the replica (only with {@link RedisFaults#of(io.breaker.redis.RedisSentinel)}).
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

    String description() {
        return description;
    }

    static Fault of(String label) {
        return Arrays.stream(values())
                .filter(fault -> fault.label.equals(label))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown fault '" + label + "': one of "
                        + Arrays.stream(values()).map(Fault::label).toList()));
    }
}
