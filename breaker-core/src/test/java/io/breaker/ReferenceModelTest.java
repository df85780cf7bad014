package io.breaker;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Random sequences of calls, clock moves and operator actions, run against the breaker and against
 * {@link Model}, a deliberately plain single-threaded statement of the rules. After every step the
 * state, the window's counts, the rejections, the remaining wait and the transitions must agree.
 */
class ReferenceModelTest {

    private static final long MS = 1_000_000L;
    private static final long SECOND = 1_000_000_000L;

    // ------------------------------------------------------------------ what a script is made of

    /** The settings a script runs with; thresholds are whole percents so the model can use integers. */
    record Settings(boolean timeBased, int windowSize, int minimumCalls, int failureRate, Integer slowMillis,
                    int slowRate, int waitMillis, int probes, int leaseMillis) {

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

    enum Kind { SUCCESS, FAILURE, IGNORED }

    sealed interface Step permits Call, Begin, End, Lost, Cancel, Tick, ForceOpen, ForceClosed, Release {
    }

    /** Asks permission and, if given, keeps the call in flight (it ends in a later {@link End}). */
    record Begin() implements Step {
    }

    /** The oldest call in flight, if any, ends now: calls that straddle transitions. */
    record End(Kind kind, int millis) implements Step {
    }

    /** Asks permission and, if given, reports the outcome at once. */
    record Call(Kind kind, int millis) implements Step {
    }

    /** Asks permission and never reports: the caller's thread died. */
    record Lost() implements Step {
    }

    /** Asks permission, then gives it back unused. */
    record Cancel() implements Step {
    }

    record Tick(int millis) implements Step {
    }

    record ForceOpen() implements Step {
    }

    record ForceClosed() implements Step {
    }

    record Release() implements Step {
    }

    @Provide
    Arbitrary<Settings> settings() {
        Arbitrary<Boolean> timeBased = Arbitraries.of(true, false);
        return timeBased.flatMap(time -> {
            Arbitrary<Integer> size = time ? Arbitraries.integers().between(1, 5) : Arbitraries.integers().between(1, 12);
            return size.flatMap(windowSize -> Combinators.combine(
                    Arbitraries.integers().between(1, time ? 8 : windowSize),
                    Arbitraries.integers().between(1, 100),
                    Arbitraries.integers().between(10, 500).injectNull(0.4),
                    Arbitraries.integers().between(1, 100),
                    Arbitraries.integers().between(1, 10_000),
                    Arbitraries.integers().between(1, 3),
                    Arbitraries.integers().between(1, 20_000)
            ).as((min, failureRate, slowMillis, slowRate, wait, probes, lease) ->
                    new Settings(time, windowSize, min, failureRate, slowMillis, slowRate, wait, probes, lease)));
        });
    }

    @Provide
    Arbitrary<List<Step>> scripts() {
        Arbitrary<Integer> millis = Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(3, Arbitraries.integers().between(0, 50)),
                net.jqwik.api.Tuple.of(2, Arbitraries.integers().between(0, 1_000)),
                net.jqwik.api.Tuple.of(1, Arbitraries.integers().between(0, 25_000)));
        Arbitrary<Step> call = Combinators.combine(Arbitraries.of(Kind.class), Arbitraries.integers().between(0, 600))
                .as(Call::new);
        Arbitrary<Step> end = Combinators.combine(Arbitraries.of(Kind.class), Arbitraries.integers().between(0, 600))
                .as(End::new);
        Arbitrary<Step> step = Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(12, call),
                net.jqwik.api.Tuple.of(2, Arbitraries.just(new Begin())),
                net.jqwik.api.Tuple.of(2, end),
                net.jqwik.api.Tuple.of(4, millis.map(Tick::new)),
                net.jqwik.api.Tuple.of(1, Arbitraries.just(new Lost())),
                net.jqwik.api.Tuple.of(1, Arbitraries.just(new Cancel())),
                net.jqwik.api.Tuple.of(1, Arbitraries.just(new ForceOpen())),
                net.jqwik.api.Tuple.of(1, Arbitraries.just(new ForceClosed())),
                net.jqwik.api.Tuple.of(1, Arbitraries.just(new Release())));
        return step.list().ofMinSize(1).ofMaxSize(150);
    }

    @Property(tries = 1000)
    void breakerFollowsTheReferenceModel(@ForAll("settings") Settings settings, @ForAll("scripts") List<Step> script) {
        FakeClock clock = new FakeClock(7 * SECOND + 123);
        CircuitBreaker breaker = CircuitBreaker.of("model", settings.toConfig(), clock);
        RecordingListener listener = new RecordingListener();
        breaker.addListener(listener);
        Model model = new Model(settings, clock.nanoTime());
        int[] inFlight = {0};

        for (int i = 0; i < script.size(); i++) {
            Step step = script.get(i);
            Boolean permitted = apply(step, breaker, clock, inFlight);
            Boolean expectedPermitted = model.apply(step, clock.nanoTime());

            int index = i;
            Supplier<String> where = () -> "after step " + index + " " + step + " of " + script + " with " + settings;
            assertThat(permitted).as(() -> "permission " + where.get()).isEqualTo(expectedPermitted);
            BreakerMetrics metrics = breaker.getMetrics();
            int[] expected = model.counts(clock.nanoTime());
            assertThat(breaker.getState()).as(() -> "state " + where.get()).isEqualTo(model.state);
            assertThat(new int[] {metrics.calls(), metrics.failedCalls(), metrics.slowCalls()})
                    .as(() -> "window counts " + where.get()).containsExactly(expected);
            assertThat(metrics.notPermittedCalls()).as(() -> "rejections " + where.get()).isEqualTo(model.rejected);
            assertThat(breaker.getRemainingWaitNanos()).as(() -> "remaining wait " + where.get())
                    .isEqualTo(model.state == State.OPEN ? Math.max(0, model.probeAt - clock.nanoTime()) : -1L);
            assertThat(listener.transitions).extracting(t -> t.to() + "/" + t.cause())
                    .as(() -> "transitions " + where.get()).containsExactlyElementsOf(model.transitions);
        }
    }

    /** Runs one step on the breaker; returns whether permission was given, or null if none was asked. */
    private static Boolean apply(Step step, CircuitBreaker breaker, FakeClock clock, int[] inFlight) {
        if (step instanceof Call call) {
            boolean permitted = breaker.tryAcquirePermission();
            if (permitted) {
                report(breaker, call.kind(), call.millis());
            }
            return permitted;
        } else if (step instanceof Begin) {
            boolean permitted = breaker.tryAcquirePermission();
            if (permitted) {
                inFlight[0]++;
            }
            return permitted;
        } else if (step instanceof End end) {
            if (inFlight[0] > 0) {
                inFlight[0]--;
                report(breaker, end.kind(), end.millis());
            }
            return null;
        } else if (step instanceof Lost) {
            return breaker.tryAcquirePermission();
        } else if (step instanceof Cancel) {
            boolean permitted = breaker.tryAcquirePermission();
            if (permitted) {
                breaker.releasePermission();
            }
            return permitted;
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

    private static void report(CircuitBreaker breaker, Kind kind, int millis) {
        long nanos = millis * MS;
        switch (kind) {
            case SUCCESS -> breaker.onSuccess(nanos);
            case FAILURE -> breaker.onError(nanos, new IOException("down"));
            default -> breaker.onError(nanos, new IllegalArgumentException("ignored"));
        }
    }

    /** The rules, written the plainest way: lists instead of rings, integers instead of rates. */
    static final class Model {

        private record Outcome(long second, boolean failed, boolean slow) {
        }

        final Settings settings;
        final List<String> transitions = new ArrayList<>();
        State state = State.CLOSED;
        long rejected;
        long probeAt;
        private List<Outcome> window = new ArrayList<>();
        private long windowOrigin;
        private int probesOut;
        private int probesSucceeded;
        private int inFlight;
        private long leaseDeadline;

        Model(Settings settings, long now) {
            this.settings = settings;
            this.windowOrigin = now;
        }

        /** Applies one step; returns whether permission was given, or null if none was asked. */
        Boolean apply(Step step, long now) {
            if (step instanceof Call call) {
                boolean permitted = acquire(now);
                if (permitted) {
                    report(call.kind(), call.millis(), now);
                }
                return permitted;
            } else if (step instanceof Begin) {
                boolean permitted = acquire(now);
                if (permitted) {
                    inFlight++;
                }
                return permitted;
            } else if (step instanceof End end) {
                if (inFlight > 0) {
                    inFlight--;
                    report(end.kind(), end.millis(), now); // judged by the state it ends in, not the one it began in
                }
            } else if (step instanceof Lost) {
                return acquire(now);
            } else if (step instanceof Cancel) {
                boolean permitted = acquire(now);
                if (permitted && state == State.HALF_OPEN) {
                    probesOut = Math.max(0, probesOut - 1);
                }
                return permitted;
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

        private boolean acquire(long now) {
            if (state == State.CLOSED || state == State.FORCED_CLOSED) {
                return true;
            }
            if (state == State.OPEN) {
                if (now < probeAt) {
                    rejected++;
                    return false;
                }
                moveTo(State.HALF_OPEN, TransitionCause.WAIT_ELAPSED);
                probesOut = 0;
                probesSucceeded = 0;
                leaseDeadline = now + settings.leaseMillis() * MS;
            }
            if (state == State.HALF_OPEN) {
                if (probesOut < settings.probes()) {
                    probesOut++;
                    leaseDeadline = now + settings.leaseMillis() * MS;
                    return true;
                }
                if (now >= leaseDeadline) { // every permit out, the newest a whole lease ago
                    leaseDeadline = now + settings.leaseMillis() * MS;
                    return true;
                }
            }
            rejected++;
            return false;
        }

        private void report(Kind kind, int millis, long now) {
            if (kind == Kind.IGNORED) {
                if (state == State.HALF_OPEN) {
                    probesOut = Math.max(0, probesOut - 1);
                }
                return;
            }
            boolean failed = kind == Kind.FAILURE;
            boolean slow = settings.slowMillis() != null && millis >= settings.slowMillis();
            switch (state) {
                case CLOSED -> {
                    window.add(new Outcome(second(now), failed, slow));
                    TransitionCause verdict = verdict(now);
                    if (verdict != null) {
                        open(now, verdict);
                    }
                }
                case FORCED_CLOSED -> window.add(new Outcome(second(now), failed, slow));
                case HALF_OPEN -> {
                    if (failed || slow) {
                        open(now, TransitionCause.PROBE_FAILED);
                    } else if (++probesSucceeded >= settings.probes()) {
                        freshWindow(now);
                        moveTo(State.CLOSED, TransitionCause.PROBES_SUCCEEDED);
                    }
                }
                default -> {
                    // OPEN, FORCED_OPEN: nothing to count it in
                }
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

        /** Calls, failed, slow in the window now. */
        int[] counts(long now) {
            List<Outcome> live;
            if (settings.timeBased()) {
                long current = second(now);
                live = window.stream().filter(o -> o.second() > current - settings.windowSize()).toList();
            } else {
                live = window.subList(Math.max(0, window.size() - settings.windowSize()), window.size());
            }
            return new int[] {live.size(), (int) live.stream().filter(Outcome::failed).count(),
                    (int) live.stream().filter(Outcome::slow).count()};
        }

        private long second(long now) {
            return (now - windowOrigin) / SECOND;
        }

        private void open(long now, TransitionCause cause) {
            probeAt = now + settings.waitMillis() * MS;
            moveTo(State.OPEN, cause);
        }

        private void freshWindow(long now) {
            window = new ArrayList<>();
            windowOrigin = now;
        }

        private void moveTo(State next, TransitionCause cause) {
            state = next;
            transitions.add(next + "/" + cause);
        }
    }
}
