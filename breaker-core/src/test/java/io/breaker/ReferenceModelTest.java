package io.breaker;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Random sequences of calls, clock moves and operator actions, run against the breaker and against
 * {@link Model}, a deliberately plain single-threaded statement of the rules. After every step the
 * permission, the state, the window's counts, the rejections, the remaining wait and the
 * transitions must agree. Calls may stay in flight across any number of steps and end (or be
 * cancelled) in a later episode: their outcomes must count only in the episode that admitted them.
 *
 * <p>Each sequence comes from its own seed. {@code -Dbreaker.model.sequences=N} sets how many run
 * (10,000 by default), {@code -Dbreaker.model.base-seed=S} fixes where they start (by default a new
 * start every run, printed), and {@code -Dbreaker.model.seed=S} re-runs the one sequence a failure
 * printed.
 */
class ReferenceModelTest {

    private static final long MS = 1_000_000L;
    private static final long SECOND = 1_000_000_000L;
    private static final long SEED_STEP = 0x9E3779B97F4A7C15L;

    // ------------------------------------------------------------------ what a script is made of

    /** The settings a script runs with; thresholds are whole percents so the model can use integers. */
    record Settings(
            boolean timeBased,
            int windowSize,
            int minimumCalls,
            int failureRate,
            Integer slowMillis,
            int slowRate,
            int waitMillis,
            int probes,
            int leaseMillis) {

        BreakerConfig toConfig() {
            return BreakerConfig.builder()
                    .slidingWindow(timeBased ? SlidingWindowType.TIME_BASED : SlidingWindowType.COUNT_BASED, windowSize)
                    .minimumNumberOfCalls(minimumCalls)
                    .failureRateThreshold(failureRate)
                    .slowCallDurationThreshold(slowMillis == null ? null : Duration.ofMillis(slowMillis))
                    .slowCallRateThreshold(slowRate)
                    .waitDurationInOpenState(Duration.ofMillis(waitMillis))
                    .permittedCallsInHalfOpenState(probes)
                    .probeLease(Duration.ofMillis(leaseMillis))
                    .ignoreExceptions(IllegalArgumentException.class)
                    .build();
        }
    }

    enum Kind {
        SUCCESS,
        FAILURE,
        IGNORED
    }

    sealed interface Step permits Call, Begin, End, Abandon, Lost, Cancel, Tick, ForceOpen, ForceClosed, Release {}

    /** Asks permission and, if given, reports the outcome at once. */
    record Call(Kind kind, int millis) implements Step {}

    /** Asks permission and, if given, keeps the call in flight (it ends in a later {@link End} or {@link Abandon}). */
    record Begin() implements Step {}

    /** One call in flight (the {@code pick}-th, modulo their number) ends now, maybe in another episode. */
    record End(int pick, Kind kind, int millis) implements Step {}

    /** One call in flight is cancelled now, maybe in another episode: it gives its permit back. */
    record Abandon(int pick) implements Step {}

    /** Asks permission and never reports: the caller's thread died. */
    record Lost() implements Step {}

    /** Asks permission, then gives it back unused. */
    record Cancel() implements Step {}

    record Tick(int millis) implements Step {}

    record ForceOpen() implements Step {}

    record ForceClosed() implements Step {}

    record Release() implements Step {}

    // ------------------------------------------------------------------ generation

    static Settings settings(SplittableRandom random) {
        boolean time = random.nextBoolean();
        int size = time ? between(random, 1, 5) : between(random, 1, 12);
        return new Settings(
                time,
                size,
                between(random, 1, time ? 8 : size),
                between(random, 1, 100),
                random.nextInt(10) < 4 ? null : between(random, 10, 500),
                between(random, 1, 100),
                between(random, 1, 10_000),
                between(random, 1, 3),
                between(random, 1, 20_000));
    }

    static List<Step> script(SplittableRandom random) {
        int length = between(random, 1, 150);
        List<Step> steps = new ArrayList<>(length);
        for (int i = 0; i < length; i++) {
            steps.add(step(random));
        }
        return steps;
    }

    private static Step step(SplittableRandom random) {
        int roll = random.nextInt(28);
        if (roll < 11) {
            return new Call(kind(random), random.nextInt(601));
        }
        if (roll < 14) {
            return new Begin();
        }
        if (roll < 17) {
            return new End(random.nextInt(8), kind(random), random.nextInt(601));
        }
        if (roll < 18) {
            return new Abandon(random.nextInt(8));
        }
        if (roll < 22) {
            int scale = random.nextInt(6);
            return new Tick(
                    scale < 3 ? random.nextInt(51) : scale < 5 ? random.nextInt(1_001) : random.nextInt(25_001));
        }
        return switch (roll) {
            case 22 -> new Lost();
            case 23 -> new Cancel();
            case 24 -> new ForceOpen();
            case 25 -> new ForceClosed();
            case 26 -> new Release();
            default -> new Tick(random.nextInt(12_001));
        };
    }

    private static Kind kind(SplittableRandom random) {
        int roll = random.nextInt(10);
        return roll < 5 ? Kind.SUCCESS : roll < 9 ? Kind.FAILURE : Kind.IGNORED;
    }

    private static int between(SplittableRandom random, int min, int max) {
        return min + random.nextInt(max - min + 1);
    }

    // ------------------------------------------------------------------ the test

    @Test
    void breakerFollowsTheReferenceModel() {
        String only = System.getProperty("breaker.model.seed");
        if (only != null) {
            runSequence(Long.parseLong(only));
            return;
        }
        int sequences = Integer.getInteger("breaker.model.sequences", 10_000);
        String base = System.getProperty("breaker.model.base-seed");
        long baseSeed = base != null ? Long.parseLong(base) : new SplittableRandom().nextLong();
        System.out.println("ReferenceModelTest: " + sequences + " sequences from base seed " + baseSeed
                + " (-Dbreaker.model.base-seed=" + baseSeed + " repeats them)");
        long steps = 0;
        for (int i = 0; i < sequences; i++) {
            steps += runSequence(baseSeed + i * SEED_STEP);
        }
        assertThat(steps).as("steps run").isGreaterThan(sequences * 20L);
    }

    /** Runs the sequence of one seed; returns its number of steps. */
    private static int runSequence(long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        Settings settings = settings(random);
        List<Step> script = script(random);
        try {
            check(settings, script);
        } catch (AssertionError failure) {
            throw new AssertionError(
                    "Sequence of seed " + seed + " broke the rules (re-run it alone with -Dbreaker.model.seed=" + seed
                            + ")\n" + failure.getMessage(),
                    failure);
        }
        return script.size();
    }

    private static void check(Settings settings, List<Step> script) {
        FakeClock clock = new FakeClock(7 * SECOND + 123);
        CircuitBreaker breaker = CircuitBreaker.of("model", settings.toConfig(), clock);
        RecordingListener listener = new RecordingListener();
        breaker.addListener(listener);
        Model model = new Model(settings, clock.nanoTime());
        List<Long> inFlight = new ArrayList<>();

        for (int i = 0; i < script.size(); i++) {
            Step step = script.get(i);
            Boolean permitted = apply(step, breaker, clock, inFlight);
            Boolean expectedPermitted = model.apply(step, clock.nanoTime());

            long now = clock.nanoTime();
            BreakerMetrics metrics = breaker.getMetrics();
            int[] counts = model.counts(now);
            long remaining = model.state == State.OPEN ? Math.max(0, model.probeAt - now) : -1L;
            List<String> heard = listener.transitions.stream()
                    .map(t -> t.to() + "/" + t.cause())
                    .toList();
            String mismatch = !java.util.Objects.equals(permitted, expectedPermitted)
                    ? "permission " + permitted + ", model " + expectedPermitted
                    : breaker.getState() != model.state
                            ? "state " + breaker.getState() + ", model " + model.state
                            : metrics.calls() != counts[0]
                                            || metrics.failedCalls() != counts[1]
                                            || metrics.slowCalls() != counts[2]
                                    ? "window counts " + metrics.calls() + "/" + metrics.failedCalls() + "/"
                                            + metrics.slowCalls() + ", model " + counts[0] + "/" + counts[1] + "/"
                                            + counts[2]
                                    : metrics.notPermittedCalls() != model.rejected
                                            ? "rejections " + metrics.notPermittedCalls() + ", model " + model.rejected
                                            : breaker.getRemainingWaitNanos() != remaining
                                                    ? "remaining wait " + breaker.getRemainingWaitNanos() + ", model "
                                                            + remaining
                                                    : !heard.equals(model.transitions)
                                                            ? "transitions " + heard + ", model " + model.transitions
                                                            : null;
            if (mismatch != null) {
                throw new AssertionError(
                        mismatch + "\nafter step " + i + " " + step + "\nof " + script + "\nwith " + settings);
            }
        }
    }

    /** Runs one step on the breaker; returns whether permission was given, or null if none was asked. */
    private static Boolean apply(Step step, CircuitBreaker breaker, FakeClock clock, List<Long> inFlight) {
        if (step instanceof Call call) {
            long permit = breaker.tryAcquirePermit();
            if (permit != CircuitBreaker.NO_PERMIT) {
                report(breaker, permit, call.kind(), call.millis());
            }
            return permit != CircuitBreaker.NO_PERMIT;
        } else if (step instanceof Begin) {
            long permit = breaker.tryAcquirePermit();
            if (permit != CircuitBreaker.NO_PERMIT) {
                inFlight.add(permit);
            }
            return permit != CircuitBreaker.NO_PERMIT;
        } else if (step instanceof End end) {
            if (!inFlight.isEmpty()) {
                report(breaker, inFlight.remove(end.pick() % inFlight.size()), end.kind(), end.millis());
            }
            return null;
        } else if (step instanceof Abandon abandon) {
            if (!inFlight.isEmpty()) {
                breaker.releasePermit(inFlight.remove(abandon.pick() % inFlight.size()));
            }
            return null;
        } else if (step instanceof Lost) {
            return breaker.tryAcquirePermit() != CircuitBreaker.NO_PERMIT;
        } else if (step instanceof Cancel) {
            long permit = breaker.tryAcquirePermit();
            if (permit != CircuitBreaker.NO_PERMIT) {
                breaker.releasePermit(permit);
            }
            return permit != CircuitBreaker.NO_PERMIT;
        } else if (step instanceof Tick tick) {
            clock.advanceMillis(tick.millis());
        } else if (step instanceof ForceOpen) {
            breaker.forceOpen();
        } else if (step instanceof ForceClosed) {
            breaker.forceClosed();
        } else {
            breaker.release();
        }
        return null;
    }

    private static void report(CircuitBreaker breaker, long permit, Kind kind, int millis) {
        long nanos = millis * MS;
        switch (kind) {
            case SUCCESS -> breaker.onSuccess(permit, nanos);
            case FAILURE -> breaker.onError(permit, nanos, new IOException("down"));
            default -> breaker.onError(permit, nanos, new IllegalArgumentException("ignored"));
        }
    }

    /**
     * The rules, written the plainest way: lists instead of rings, integers instead of rates, and a
     * permit as the pair (episode, probe generation) instead of packed bits.
     */
    static final class Model {

        private record Outcome(long second, boolean failed, boolean slow) {}

        /** Which episode (one per state entered) and which probe generation admitted a call. */
        private record Permit(int episode, int generation) {}

        final Settings settings;
        final List<String> transitions = new ArrayList<>();
        State state = State.CLOSED;
        long rejected;
        long probeAt;
        private int episode;
        private List<Outcome> window = new ArrayList<>();
        private long windowOrigin;
        /** The window's counts when it tripped: what OPEN and HALF_OPEN (and what follows them) report. */
        private int[] tripped;

        private int generation;
        private int probesIssued;
        private int probesSucceeded;
        private long leaseDeadline;
        private final List<Permit> inFlight = new ArrayList<>();

        Model(Settings settings, long now) {
            this.settings = settings;
            this.windowOrigin = now;
        }

        /** Applies one step; returns whether permission was given, or null if none was asked. */
        Boolean apply(Step step, long now) {
            if (step instanceof Call call) {
                Permit permit = acquire(now);
                if (permit != null) {
                    report(permit, call.kind(), call.millis(), now);
                }
                return permit != null;
            } else if (step instanceof Begin) {
                Permit permit = acquire(now);
                if (permit != null) {
                    inFlight.add(permit);
                }
                return permit != null;
            } else if (step instanceof End end) {
                if (!inFlight.isEmpty()) {
                    report(inFlight.remove(end.pick() % inFlight.size()), end.kind(), end.millis(), now);
                }
            } else if (step instanceof Abandon abandon) {
                if (!inFlight.isEmpty()) {
                    giveBack(inFlight.remove(abandon.pick() % inFlight.size()));
                }
            } else if (step instanceof Lost) {
                return acquire(now) != null;
            } else if (step instanceof Cancel) {
                Permit permit = acquire(now);
                if (permit != null) {
                    giveBack(permit);
                }
                return permit != null;
            } else if (step instanceof ForceOpen) {
                if (state != State.FORCED_OPEN) {
                    moveTo(State.FORCED_OPEN, TransitionCause.OPERATOR);
                }
            } else if (step instanceof ForceClosed) {
                if (state != State.FORCED_CLOSED) {
                    freshWindow(now);
                    moveTo(State.FORCED_CLOSED, TransitionCause.OPERATOR);
                }
            } else if (step instanceof Release) {
                if (state != State.CLOSED) {
                    freshWindow(now);
                    moveTo(State.CLOSED, TransitionCause.OPERATOR);
                }
            }
            // Tick: time moves; nothing happens until somebody calls.
            return null;
        }

        /** The permit for a call now, or null if it is rejected. */
        private Permit acquire(long now) {
            if (state == State.CLOSED || state == State.FORCED_CLOSED) {
                return new Permit(episode, 0);
            }
            if (state == State.OPEN) {
                if (now < probeAt) {
                    rejected++;
                    return null;
                }
                moveTo(State.HALF_OPEN, TransitionCause.WAIT_ELAPSED);
                generation = 0;
                probesIssued = 0;
                probesSucceeded = 0;
                leaseDeadline = now + settings.leaseMillis() * MS;
            }
            if (state == State.HALF_OPEN) {
                if (probesIssued < settings.probes()) {
                    probesIssued++;
                    leaseDeadline = now + settings.leaseMillis() * MS;
                    return new Permit(episode, generation);
                }
                if (now >= leaseDeadline) {
                    // Every permit out, the newest a whole lease ago: the silent probes are replaced.
                    generation++;
                    probesIssued = probesSucceeded + 1;
                    leaseDeadline = now + settings.leaseMillis() * MS;
                    return new Permit(episode, generation);
                }
            }
            rejected++;
            return null;
        }

        private boolean isCurrentProbe(Permit permit) {
            return state == State.HALF_OPEN && permit.episode() == episode && permit.generation() == generation;
        }

        /** A cancelled or ignored call: only a current probe's permit is free again. */
        private void giveBack(Permit permit) {
            if (isCurrentProbe(permit) && probesIssued > probesSucceeded) {
                probesIssued--;
            }
        }

        private void report(Permit permit, Kind kind, int millis, long now) {
            if (kind == Kind.IGNORED) {
                giveBack(permit);
                return;
            }
            boolean failed = kind == Kind.FAILURE;
            boolean slow = settings.slowMillis() != null && millis >= settings.slowMillis();
            if (state == State.HALF_OPEN) {
                if (!isCurrentProbe(permit)) {
                    return;
                }
                if (failed || slow) {
                    open(now, TransitionCause.PROBE_FAILED);
                } else if (++probesSucceeded >= settings.probes()) {
                    freshWindow(now);
                    moveTo(State.CLOSED, TransitionCause.PROBES_SUCCEEDED);
                }
                return;
            }
            if (permit.episode() != episode) {
                return; // admitted in an earlier episode: counts nowhere
            }
            if (state == State.CLOSED) {
                window.add(new Outcome(second(now), failed, slow));
                TransitionCause verdict = verdict(now);
                if (verdict != null) {
                    open(now, verdict);
                }
            } else if (state == State.FORCED_CLOSED) {
                window.add(new Outcome(second(now), failed, slow));
            }
        }

        private TransitionCause verdict(long now) {
            int[] counts = counts(now);
            int calls = counts[0];
            if (calls < settings.minimumCalls()) {
                return null;
            }
            if (counts[1] * 100 >= settings.failureRate() * calls) {
                return counts[1] > 0 ? TransitionCause.FAILURE_RATE : null;
            }
            if (settings.slowMillis() != null && counts[2] > 0 && counts[2] * 100 >= settings.slowRate() * calls) {
                return TransitionCause.SLOW_CALL_RATE;
            }
            return null;
        }

        /** Calls, failed, slow in the window now (as it tripped, once it has). */
        int[] counts(long now) {
            if (tripped != null) {
                return tripped;
            }
            List<Outcome> live;
            if (settings.timeBased()) {
                long current = second(now);
                live = window.stream()
                        .filter(o -> o.second() > current - settings.windowSize())
                        .toList();
            } else {
                live = window.subList(Math.max(0, window.size() - settings.windowSize()), window.size());
            }
            return new int[] {
                live.size(),
                (int) live.stream().filter(Outcome::failed).count(),
                (int) live.stream().filter(Outcome::slow).count()
            };
        }

        private long second(long now) {
            return (now - windowOrigin) / SECOND;
        }

        private void open(long now, TransitionCause cause) {
            tripped = counts(now); // a probe that fails keeps the numbers of the trip
            probeAt = now + settings.waitMillis() * MS;
            moveTo(State.OPEN, cause);
        }

        private void freshWindow(long now) {
            tripped = null;
            window = new ArrayList<>();
            windowOrigin = now;
        }

        private void moveTo(State next, TransitionCause cause) {
            state = next;
            episode++;
            transitions.add(next + "/" + cause);
        }
    }
}
