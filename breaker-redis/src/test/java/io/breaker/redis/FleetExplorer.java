package io.breaker.redis;

import io.breaker.redis.FleetWorld.Mutation;
import io.breaker.redis.FleetWorld.Op;
import io.breaker.redis.FleetWorld.Rules;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Depth-first over every interleaving of the model's steps, up to a depth: from a start (a fixed
 * prefix of steps), every enabled step, and for a step that made k script calls, also each variant
 * in which its i-th call (i ≤ k) times out. A world reached again with no more depth left to explore
 * than before is pruned (its fingerprint, see {@link FleetWorld#fingerprint()}). When an invariant
 * breaks, iterative deepening finds a shortest trace to a broken invariant.
 */
final class FleetExplorer {

    final Rules rules;
    final List<Mutation> mutations;
    final List<Op> prefix;

    long states;
    long steps;
    long pruned;
    /** Worlds seen, by a 128-bit digest of their fingerprint, with the depth left when they were seen. */
    private Map<Digest, Integer> visited;
    /** Called with the script calls of explored worlds (recording on), for the comparison with real Redis. */
    Consumer<FleetWorld> leafSink;

    List<Op> failingTrace;
    List<String> failure;
    /** Goes on after a broken invariant (not below it): the first trace of each invariant is kept. */
    boolean keepGoing;
    /**
     * Known bugs (a text their violation contains): reaching one is counted and its first trace kept,
     * and the exploration goes on around it (not below it), so that it still checks everything else.
     */
    List<String> knownBugs = List.of();

    long knownBugHits;
    final Map<String, List<Op>> knownBugTraces = new java.util.TreeMap<>();
    final Map<String, List<Op>> firstTraces = new java.util.TreeMap<>();

    FleetExplorer(Rules rules, List<Mutation> mutations, List<Op> prefix) {
        this.rules = rules;
        this.mutations = mutations;
        this.prefix = prefix;
    }

    /** Script runs already made, so that replays skip luaj (bounded: the oldest go first). */
    final Map<String, Object[]> memo = new java.util.LinkedHashMap<>(1 << 16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Object[]> eldest) {
            return size() > 200_000;
        }
    };

    FleetWorld build(List<Op> path) {
        FleetWorld world = new FleetWorld(rules, mutations);
        world.recording = leafSink != null;
        world.memo = memo;
        for (Op op : prefix) {
            world.apply(op);
        }
        if (!world.violations.isEmpty()) {
            throw new IllegalStateException("the start breaks an invariant: " + world.violations);
        }
        for (Op op : path) {
            world.apply(op);
        }
        return world;
    }

    /** Explores to {@code depth}; returns whether an invariant broke (then see {@link #failingTrace}). */
    boolean explore(int depth) {
        visited = new HashMap<>();
        List<Op> path = new ArrayList<>();
        return dfs(build(path), path, depth);
    }

    /** After a failure: the shortest trace that breaks an invariant (iterative deepening). */
    void shortenFailure() {
        int length = failingTrace.size();
        Consumer<FleetWorld> sink = leafSink;
        leafSink = null;
        for (int d = 1; d < length; d++) {
            if (explore(d)) {
                break;
            }
        }
        leafSink = sink;
    }

    private boolean dfs(FleetWorld world, List<Op> path, int remaining) {
        states++;
        Digest fingerprint = Digest.of(world.fingerprint());
        Integer seen = visited.get(fingerprint);
        if (seen != null && seen >= remaining) {
            pruned++;
            return false;
        }
        visited.put(fingerprint, remaining);
        if (remaining == 0) {
            if (leafSink != null) {
                leafSink.accept(world);
            }
            return false;
        }
        List<Op> ops = new ArrayList<>(world.enabled());
        Map<Op, Boolean> mayTimeOut = new HashMap<>();
        for (Op op : ops) {
            mayTimeOut.put(op, world.mayTimeOut(op));
        }
        FleetWorld reusable = world;
        for (int n = 0; n < ops.size(); n++) {
            Op op = ops.get(n);
            FleetWorld child = reusable != null ? reusable : build(path);
            reusable = null;
            steps++;
            path.add(op);
            currentPath = path;
            int runs;
            try {
                runs = child.apply(op);
            } catch (RuntimeException | AssertionError e) {
                child.violations.add("exception: " + e);
                runs = 0;
            }
            if (op.timeout() == 0 && mayTimeOut.get(op)) {
                for (int k = runs; k >= 1; k--) {
                    ops.add(n + 1, op.withTimeout(k));
                    mayTimeOut.put(op.withTimeout(k), true);
                }
            }
            if (!child.violations.isEmpty() && known(child.violations)) {
                knownBugHits++;
                path.remove(path.size() - 1);
                continue;
            }
            if (!child.violations.isEmpty()) {
                if (keepGoing) {
                    for (String v : child.violations) {
                        firstTraces.putIfAbsent(v.substring(0, Math.max(0, v.indexOf(':'))), new ArrayList<>(path));
                    }
                    path.remove(path.size() - 1);
                    continue;
                }
                failingTrace = new ArrayList<>(path);
                failure = new ArrayList<>(child.violations);
                return true;
            }
            if (dfs(child, path, remaining - 1)) {
                return true;
            }
            path.remove(path.size() - 1);
        }
        return false;
    }

    private boolean known(List<String> violations) {
        for (String v : violations) {
            for (String bug : knownBugs) {
                if (v.contains(bug)) {
                    knownBugTraces.putIfAbsent(bug, new ArrayList<>(currentPath));
                    return true;
                }
            }
        }
        return false;
    }

    private List<Op> currentPath = List.of();

    /**
     * A fingerprint's MD5 (not for security: 128 bits keep millions of worlds in memory, where the
     * fingerprints themselves take a kilobyte or two each; a collision, which would prune a world
     * wrongly, is as likely as two equal random 128-bit numbers among millions).
     */
    record Digest(long high, long low) {

        static Digest of(String fingerprint) {
            try {
                byte[] md5 = java.security.MessageDigest.getInstance("MD5")
                        .digest(fingerprint.getBytes(java.nio.charset.StandardCharsets.UTF_8));
                java.nio.ByteBuffer bytes = java.nio.ByteBuffer.wrap(md5);
                return new Digest(bytes.getLong(), bytes.getLong());
            } catch (java.security.NoSuchAlgorithmException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    /** The trace, one step a line, with the state of Redis and of each instance after each step. */
    String describe(List<Op> trace) {
        StringBuilder out = new StringBuilder();
        FleetWorld world = new FleetWorld(rules, mutations);
        out.append("start: ").append(prefix).append('\n');
        for (Op op : prefix) {
            world.apply(op);
        }
        out.append(world.summary()).append('\n');
        int i = 1;
        for (Op op : trace) {
            int before = world.violations.size();
            try {
                world.apply(op);
            } catch (RuntimeException e) {
                out.append(i)
                        .append(". ")
                        .append(op)
                        .append("  -> exception ")
                        .append(e)
                        .append('\n');
                break;
            }
            out.append(i++)
                    .append(". ")
                    .append(op)
                    .append('\n')
                    .append(world.summary())
                    .append('\n');
            for (String v : world.violations.subList(before, world.violations.size())) {
                out.append("   !! ").append(v).append('\n');
            }
        }
        return out.toString();
    }
}
