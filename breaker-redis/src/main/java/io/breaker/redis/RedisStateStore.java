package io.breaker.redis;

import io.breaker.BreakerConfig;
import io.breaker.State;
import io.breaker.TransitionCause;
import io.breaker.WaitReason;
import io.breaker.spi.SharedState;
import io.breaker.spi.SharedVerdict;
import io.breaker.spi.StateStore;
import io.breaker.spring.store.StoreFailureMode;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

import java.util.List;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import java.util.function.LongConsumer;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * A {@link StateStore} that shares breakers' states between the instances of an application through
 * Redis (standalone, Sentinel or Cluster: whatever the {@link RedisConnectionFactory} connects to).
 *
 * <p>Each shared breaker keeps its in-memory state machine as a cache of the fleet's state: a
 * healthy call never waits for Redis. There is no timer: the first call on a breaker that finds its
 * cached state older than {@link RedisStoreSettings#stateCacheTtl()} (exactly one caller wins a
 * compare-and-set on the breaker's next-refresh time) hands one refresh of that breaker, carrying
 * the successes counted since the last one, to this store's bounded command pool and goes on without
 * waiting; the answer is adopted when it comes. A breaker nobody calls costs no Redis command.
 * Failures, probes and operator changes are sent when they happen, by the calling thread, which
 * waits at most {@link RedisStoreSettings#timeout()}.
 *
 * <p>The command pool's threads ({@code breaker-redis-command-*}, daemons that stop after 30 s
 * idle) only run Redis commands, so that a caller can stop waiting for one after the timeout
 * whatever the client's own timeout; none of them is a timer.
 *
 * <p>When Redis does not answer in time or fails, the store counts it ({@link #getFailureCount()}),
 * logs one WARN line for the episode and behaves as its {@link StoreFailureMode} says; callers never
 * see a Redis exception. While Redis is known to be down, callers do not try it at all; a due
 * refresh tries it, at most once per cache TTL for the whole store, and when Redis answers again the
 * store logs one INFO line and every breaker resynchronises at its next call (operator changes made
 * meanwhile are replayed first).
 */
public final class RedisStateStore implements StateStore, AutoCloseable {

    private static final Log LOG = LogFactory.getLog(RedisStateStore.class);
    private static final int COMMAND_THREADS = 8;
    private static final int COMMAND_QUEUE = 1024;
    /**
     * Refreshes in flight at once. A refresh waits on the pool for its own command, so it may hold at
     * most half the threads: the other half always run commands, and no refresh waits behind others.
     */
    private static final int REFRESH_SLOTS = COMMAND_THREADS / 2;
    /**
     * The first refreshes also open the connection (and load the scripts), which at an application's
     * start-up on a busy machine may take seconds. Nobody waits for a refresh, so until Redis has
     * answered once a refresh may wait this long before it declares Redis unavailable.
     */
    private static final long WARM_UP_NANOS = TimeUnit.SECONDS.toNanos(10);

    private final StringRedisTemplate redis;
    private final RedisStoreSettings settings;
    private final Predicate<String> sharedNames;
    private final String instanceId = UUID.randomUUID().toString();
    private final BreakerScripts scripts = new BreakerScripts();
    private final StoreHealth health;
    private final ThreadPoolExecutor commands;
    private volatile Consumer<String> afterRefresh = name -> {};
    private final Semaphore refreshSlots = new Semaphore(REFRESH_SLOTS);
    private final List<RedisSharedState> attached = new CopyOnWriteArrayList<>();
    /** While Redis is known to be down: when (System.nanoTime) the next refresh may try it. */
    private final AtomicLong nextRecoveryAttempt = new AtomicLong(System.nanoTime());

    private final long timeoutNanos;
    private final long ttlNanos;
    /** Operations a calling thread stopped waiting for (see {@link #getTimeoutCount()}). */
    private final LongAdder callerTimeouts = new LongAdder();

    /** Told the duration of every Redis command, answered or failed, on the command thread that ran it. */
    private volatile LongConsumer commandTimes = nanos -> {};

    private volatile boolean warm;
    private volatile boolean closed;
    /** What this store's breakers see of it (see ScriptStore). */
    private final ScriptStore link = new Link();

    /** A store sharing every breaker of the registries it is given to. */
    public RedisStateStore(RedisConnectionFactory connectionFactory, RedisStoreSettings settings) {
        this(connectionFactory, settings, name -> true);
    }

    /**
     * A store sharing the breakers whose names {@code sharedNames} accepts; the others stay in memory.
     */
    public RedisStateStore(
            RedisConnectionFactory connectionFactory, RedisStoreSettings settings, Predicate<String> sharedNames) {
        this.redis = new StringRedisTemplate(Objects.requireNonNull(connectionFactory, "connectionFactory"));
        this.settings = Objects.requireNonNull(settings, "settings");
        this.sharedNames = Objects.requireNonNull(sharedNames, "sharedNames");
        this.health = new StoreHealth(settings);
        this.timeoutNanos = settings.timeout().toNanos();
        this.ttlNanos = settings.stateCacheTtl().toNanos();
        this.commands = new ThreadPoolExecutor(
                COMMAND_THREADS,
                COMMAND_THREADS,
                30,
                TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(COMMAND_QUEUE),
                daemonThreads("breaker-redis-command-"),
                new ThreadPoolExecutor.AbortPolicy());
        this.commands.allowCoreThreadTimeOut(true);
    }

    @Override
    public @Nullable SharedState attach(String name, BreakerConfig config) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(config, "config");
        if (!sharedNames.test(name)) {
            return null;
        }
        settings.requireKeyExpiryCovers(name, config);
        RedisSharedState shared = new RedisSharedState(link, name, config);
        attached.add(shared);
        return shared;
    }

    /**
     * Whether this instance's last operator change of the breaker {@code name} changed the fleet's
     * state in Redis; {@code null} when Redis did not answer it (or there was none, or the breaker is
     * not shared here): see {@link #lastOperatorChangeUnanswered(String)} for which.
     */
    public @Nullable Boolean lastOperatorChangeChangedFleet(String name) {
        for (RedisSharedState shared : attached) {
            if (shared.name().equals(name)) {
                return shared.lastOperatorChangeChangedFleet();
            }
        }
        return null;
    }

    /**
     * The fleet's state in Redis as this instance last heard it for the breaker {@code name}, or
     * {@code null} when Redis has not answered for it yet (or the breaker is not shared here).
     */
    @Nullable
    FleetSeen fleetSeen(String name) {
        for (RedisSharedState shared : attached) {
            if (shared.name().equals(name)) {
                return shared.fleetSeen();
            }
        }
        return null;
    }

    /**
     * Whether this instance's last operator change of the breaker {@code name} was sent to Redis and
     * got no answer in time: it may have changed the fleet or not (a late answer is applied when it
     * comes; without one, the change is replayed). {@code false} when Redis answered, or was known to
     * be down and not asked.
     */
    public boolean lastOperatorChangeUnanswered(String name) {
        for (RedisSharedState shared : attached) {
            if (shared.name().equals(name)) {
                return shared.lastOperatorChangeUnanswered();
            }
        }
        return false;
    }

    /**
     * Whether Redis is taken to be reachable: {@code false} during an outage (see {@link StoreHealth}
     * for when one starts), while breakers protect each instance on its own or reject calls.
     */
    public boolean isAvailable() {
        return health.isAvailable();
    }

    /**
     * Redis operations that got no answer: timed out, failed, or not tried because Redis was known
     * to be down. Grows during an outage; exported as the {@code breaker.store.failures} meter.
     */
    public long getFailureCount() {
        return health.failures();
    }

    /**
     * Operations a calling thread (a protected call, or an operator's change) stopped waiting for:
     * Redis gave no answer within {@link RedisStoreSettings#timeout()}, or the command pool was full.
     * That caller went on with the state its instance had, so a failure reported this way may let
     * the instance make one more call before it learns that the fleet tripped; a late answer is
     * applied when it comes. Refreshes, which nobody waits for, are not counted here. Exported as
     * the {@code breaker.store.timeouts} meter.
     */
    public long getTimeoutCount() {
        return callerTimeouts.sum();
    }

    /** Outages since the store was created: episodes during which each instance acted on its own. */
    public long getOutageCount() {
        return health.outages();
    }

    /** The store's settings. */
    public RedisStoreSettings getSettings() {
        return settings;
    }

    /**
     * Stops the command pool; breakers attached to this store then fall back to their local state
     * (fail open) and are no longer refreshed.
     */
    @Override
    public void close() {
        closed = true;
        commands.shutdownNow();
    }

    boolean isWarm() {
        return warm;
    }

    /** Whether Redis is down, or its last operations went unanswered: a breaker may then trip on its own window. */
    boolean isSilent() {
        return !health.isAvailable() || health.isSilent();
    }

    BreakerScripts scripts() {
        return scripts;
    }

    /**
     * Runs one script and waits at most the timeout. Returns the answer, or {@code null} on timeout,
     * error, interruption, or when Redis is known to be down and {@code evenIfDown} is false. An
     * answer that arrives after the caller stopped waiting is not lost: it goes to {@code late}
     * (on a command thread), and it tells the store that Redis is up, only slow.
     */
    @Nullable
    Answer run(
            RedisScript<List> script,
            List<String> keys,
            String[] args,
            boolean evenIfDown,
            @Nullable Consumer<Answer> late) {
        if (!evenIfDown && !health.isAvailable()) {
            health.skipped();
            return null;
        }
        CompletableFuture<List> pending;
        try {
            pending = CompletableFuture.supplyAsync(
                    () -> timed(() -> redis.execute(script, keys, (Object[]) args)), commands);
        } catch (RejectedExecutionException busy) {
            health.failed(busy, false);
            if (!evenIfDown) {
                callerTimeouts.increment();
            }
            return null;
        }
        long sent = System.nanoTime();
        try {
            List<?> answer = pending.get(evenIfDown && !warm ? WARM_UP_NANOS : timeoutNanos, TimeUnit.NANOSECONDS);
            return answered(answer);
        } catch (TimeoutException e) {
            if (!evenIfDown) {
                callerTimeouts.increment();
            }
            health.failed(
                    new TimeoutException(
                            "no answer from Redis within " + settings.timeout().toMillis() + "ms"),
                    false);
            if (LOG.isDebugEnabled()) {
                LOG.debug("Breaker state store did not answer in time: store=redis key=" + keys.get(0) + " timeout="
                        + settings.timeout().toMillis() + "ms; the caller goes on, a late answer is applied");
                pending.whenComplete((answer, error) -> LOG.debug("Breaker state store answered late: store=redis key="
                        + keys.get(0) + " after=" + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - sent) + "ms"
                        + (error == null ? "" : " error=" + error)));
            }
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            health.failed(cause, true);
            return null;
        } catch (InterruptedException e) {
            // The caller was interrupted, not Redis: no failure of the store; the answer still counts.
            Thread.currentThread().interrupt();
        }
        pending.whenComplete((answer, error) -> {
            if (error == null) {
                Answer read = answered(answer);
                if (read != null && late != null) {
                    late.accept(read);
                }
            }
        });
        return null;
    }

    /**
     * Runs one script without waiting for it: for a caller on a thread that must not block (a Redis
     * client's or Reactor's event loop, which may be the very thread that has to deliver the answer).
     * The answer goes to {@code then}, on a command thread; none comes when Redis does not answer.
     */
    void runAsync(RedisScript<List> script, List<String> keys, String[] args, Consumer<Answer> then) {
        if (!health.isAvailable()) {
            health.skipped();
            return;
        }
        try {
            CompletableFuture.supplyAsync(() -> timed(() -> redis.execute(script, keys, (Object[]) args)), commands)
                    .orTimeout(evenIfWarm(), TimeUnit.NANOSECONDS)
                    .whenComplete((answer, error) -> {
                        if (error == null) {
                            Answer read = answered(answer);
                            if (read != null) {
                                then.accept(read);
                            }
                        } else {
                            Throwable cause = error instanceof CompletionException && error.getCause() != null
                                    ? error.getCause()
                                    : error;
                            health.failed(cause, !(cause instanceof TimeoutException));
                        }
                    });
        } catch (RejectedExecutionException busy) {
            health.failed(busy, false);
        }
    }

    /**
     * Adds a receiver of the duration (nanoseconds) of every Redis command this store runs, answered or
     * failed, called on the command thread that ran it (never on a caller's); for the store's meters.
     */
    synchronized void onCommandTimed(LongConsumer receiver) {
        commandTimes = commandTimes.andThen(Objects.requireNonNull(receiver, "receiver"));
    }

    private <T> T timed(Supplier<T> command) {
        long start = System.nanoTime();
        try {
            return command.get();
        } finally {
            commandTimes.accept(System.nanoTime() - start);
        }
    }

    private long evenIfWarm() {
        return warm ? timeoutNanos : WARM_UP_NANOS;
    }

    /** Redis answered (in time or late): reads the answer, and ends an outage if there was one. */
    private @Nullable Answer answered(@Nullable List<?> answer) {
        warm = true;
        if (health.succeeded()) {
            attached.forEach(RedisSharedState::storeRecovered);
        }
        return read(answer);
    }

    /**
     * What a breaker adopts when Redis is known to be unavailable: nothing with protect-locally (the
     * instance's own breaker decides), OPEN until the next refresh with reject.
     */
    @Nullable
    SharedVerdict unavailable() {
        return settings.failureMode() == StoreFailureMode.PROTECT_LOCALLY
                ? null
                : new SharedVerdict(State.OPEN, settings.stateCacheTtl().toNanos(), TransitionCause.STORE_UNAVAILABLE);
    }

    /**
     * Reads a script's answer (see common.lua); an answer that cannot be read (another version of the
     * scripts?) counts as a store failure.
     */
    @Nullable
    Answer read(@Nullable List<?> answer) {
        try {
            return parse(answer);
        } catch (RuntimeException unreadable) {
            health.failed(
                    new IllegalStateException("unreadable answer from a breaker script: " + answer, unreadable), true);
            return null;
        }
    }

    /** Parses a script's answer (see common.lua); throws if it cannot be read. */
    static Answer parse(List<?> answer) {
        State state = State.valueOf(String.valueOf(answer.get(0)));
        long remainingMillis = Long.parseLong(String.valueOf(answer.get(1)));
        TransitionCause cause = TransitionCause.valueOf(String.valueOf(answer.get(2)));
        return new Answer(
                new SharedVerdict(
                        state,
                        remainingMillis * 1_000_000L,
                        cause,
                        tripped(answer),
                        failedProbes(answer),
                        waitReason(answer)),
                Long.parseLong(String.valueOf(answer.get(5))),
                String.valueOf(answer.get(6)),
                Long.parseLong(String.valueOf(answer.get(7))),
                Long.parseLong(String.valueOf(answer.get(8))),
                Long.parseLong(String.valueOf(answer.get(9))),
                Long.parseLong(String.valueOf(answer.get(10))),
                "1".equals(String.valueOf(answer.get(11))),
                "1".equals(String.valueOf(answer.get(3))));
    }

    /** The fleet's failed probes since its trip, if the answer says them (OPEN and HALF_OPEN). */
    private static int failedProbes(List<?> answer) {
        String text = answer.size() > 13 ? String.valueOf(answer.get(13)) : "";
        return text.isEmpty() ? SharedVerdict.UNKNOWN : Integer.parseInt(text);
    }

    /** Why the fleet's OPEN waits as long as it does, if the answer says it. */
    private static @Nullable WaitReason waitReason(List<?> answer) {
        String text = answer.size() > 14 ? String.valueOf(answer.get(14)) : "";
        return text.isEmpty() ? null : WaitReason.valueOf(text);
    }

    /** The counts of the fleet's window when it tripped, if the answer has them ('calls,failed,slow'). */
    private static SharedVerdict.@Nullable Counts tripped(List<?> answer) {
        String text = answer.size() > 12 ? String.valueOf(answer.get(12)) : "";
        if (text.isEmpty()) {
            return null;
        }
        String[] counts = text.split(",", -1);
        if (counts.length != 3) {
            throw new IllegalArgumentException("tripped counts must be calls,failed,slow, were " + text);
        }
        return new SharedVerdict.Counts(
                Integer.parseInt(counts[0]), Integer.parseInt(counts[1]), Integer.parseInt(counts[2]));
    }

    /**
     * A script's answer.
     *
     * @param verdict     the fleet's state, seen from this instance
     * @param version     raised by every change of the shared state: orders answers within an incarnation
     * @param incarnation the shared state's incarnation: a new one means Redis lost the state
     * @param windowEpoch the version at which the current window started
     * @param windowSeq   outcomes added to that window so far
     * @param acked       this instance's newest report that Redis applied
     * @param operatorAt  time (ms) of the newest operator action applied
     * @param fresh       nothing has happened to this incarnation yet but seeds
     * @param changed     the script changed the shared state
     */
    record Answer(
            SharedVerdict verdict,
            long version,
            String incarnation,
            long windowEpoch,
            long windowSeq,
            long acked,
            long operatorAt,
            boolean fresh,
            boolean changed) {}

    String instanceIdArg() {
        return instanceId;
    }

    long keyExpiryMillis() {
        return settings.keyExpiry().toMillis();
    }

    long ttlNanos() {
        return ttlNanos;
    }

    long timeoutNanos() {
        return timeoutNanos;
    }

    /**
     * On a calling thread whose breaker's cached state is due: starts its refresh on the command
     * pool and returns without waiting. Returns {@code false} only when every refresh slot is taken
     * (the caller's breaker then stays due, and its next call asks again).
     */
    boolean refreshSoon(RedisSharedState shared) {
        if (closed) {
            return true;
        }
        if (!health.isAvailable() && !recoveryAttemptDue()) {
            // Known down and this period's attempt belongs to another breaker: no Redis command.
            if (settings.failureMode() == StoreFailureMode.REJECT) {
                shared.holdOpen();
            }
            return true;
        }
        if (!refreshSlots.tryAcquire()) {
            return false;
        }
        try {
            commands.execute(() -> refreshNow(shared));
            return true;
        } catch (RejectedExecutionException busy) {
            refreshSlots.release();
            if (!closed) {
                health.failed(busy, false);
            }
            return true;
        }
    }

    /**
     * Called on a command thread with a breaker's name after each refresh that Redis answered (see
     * {@link RedisSharedSettings}): settings changed at runtime travel with the refresh, never on the call path.
     */
    void afterRefresh(Consumer<String> then) {
        this.afterRefresh = Objects.requireNonNull(then, "then");
    }

    /**
     * Runs one Redis operation on the command pool and waits at most the store's timeout; {@code null}
     * when it did not answer in time or failed (not counted as an outage: settings are not the state).
     */
    <T> T callWithin(java.util.function.Function<StringRedisTemplate, T> operation) {
        return attemptWithin(operation).value();
    }

    /**
     * Like {@link #callWithin}, telling apart an operation that was not sent (Redis known to be down,
     * the store closed, the pool full) from one that was sent and got no answer in time or failed,
     * which may have been carried out.
     */
    <T> Attempt<T> attemptWithin(java.util.function.Function<StringRedisTemplate, T> operation) {
        if (closed || !health.isAvailable()) {
            return new Attempt<>(null, false);
        }
        CompletableFuture<T> pending;
        try {
            pending = CompletableFuture.supplyAsync(() -> timed(() -> operation.apply(redis)), commands);
        } catch (RejectedExecutionException busy) {
            return new Attempt<>(null, false);
        }
        try {
            return new Attempt<>(pending.get(timeoutNanos, TimeUnit.NANOSECONDS), true);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            // sent: it may have been carried out
        }
        return new Attempt<>(null, true);
    }

    /**
     * One operation's outcome: its answer ({@code null} when none came in time), and whether it was
     * sent at all.
     */
    record Attempt<T>(T value, boolean sent) {}

    /** On a command thread: one breaker's refresh (which waits, bounded, for its command on the pool). */
    private void refreshNow(RedisSharedState shared) {
        try {
            boolean answered = shared.refresh();
            if (answered) {
                afterRefresh.accept(shared.name());
            }
            if (!answered && settings.failureMode() == StoreFailureMode.REJECT && !health.isAvailable()) {
                // Redis is down: it would not answer the others either; they read OPEN too.
                attached.forEach(RedisSharedState::holdOpen);
            }
        } catch (Throwable unexpected) {
            LOG.error("Refreshing the shared state of a breaker failed unexpectedly", unexpected);
        } finally {
            refreshSlots.release();
        }
    }

    /** While Redis is down, one refresh per cache TTL (for the whole store) may try it again. */
    private boolean recoveryAttemptDue() {
        long now = System.nanoTime();
        long due = nextRecoveryAttempt.get();
        // A CAS: of the refreshes due at once, exactly one tries Redis this period.
        return now - due >= 0 && nextRecoveryAttempt.compareAndSet(due, now + ttlNanos);
    }

    /** This store as its breakers' {@link ScriptStore}: plain delegation, so the store's API stays as it is. */
    private final class Link implements ScriptStore {

        @Override
        public BreakerScripts scripts() {
            return scripts;
        }

        @Override
        public String instanceIdArg() {
            return RedisStateStore.this.instanceIdArg();
        }

        @Override
        public long keyExpiryMillis() {
            return RedisStateStore.this.keyExpiryMillis();
        }

        @Override
        public long ttlNanos() {
            return ttlNanos;
        }

        @Override
        public long timeoutNanos() {
            return timeoutNanos;
        }

        @Override
        public boolean isAvailable() {
            return RedisStateStore.this.isAvailable();
        }

        @Override
        public boolean isSilent() {
            return RedisStateStore.this.isSilent();
        }

        @Override
        public @Nullable SharedVerdict unavailable() {
            return RedisStateStore.this.unavailable();
        }

        @Override
        public boolean refreshSoon(RedisSharedState shared) {
            return RedisStateStore.this.refreshSoon(shared);
        }

        @Override
        public @Nullable Answer run(
                RedisScript<List> script,
                List<String> keys,
                String[] args,
                boolean evenIfDown,
                @Nullable Consumer<Answer> late) {
            return RedisStateStore.this.run(script, keys, args, evenIfDown, late);
        }

        @Override
        public void runAsync(RedisScript<List> script, List<String> keys, String[] args, Consumer<Answer> then) {
            RedisStateStore.this.runAsync(script, keys, args, then);
        }
    }

    private static ThreadFactory daemonThreads(String prefix) {
        AtomicInteger count = new AtomicInteger();
        return runnable -> {
            Thread thread = new Thread(runnable, prefix + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }
}
