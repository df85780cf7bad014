package io.breaker.redis;

import io.breaker.BreakerConfig;
import io.breaker.SharedState;
import io.breaker.SharedVerdict;
import io.breaker.State;
import io.breaker.StateStore;
import io.breaker.TransitionCause;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

import java.util.List;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * A {@link StateStore} that shares breakers' states between the instances of an application through
 * Redis (standalone, Sentinel or Cluster: whatever the {@link RedisConnectionFactory} connects to).
 *
 * <p>Each shared breaker keeps its in-memory state machine as a cache of the fleet's state: a
 * healthy call never talks to Redis. Once per {@link RedisStoreSettings#stateCacheTtl()} one thread
 * of this store refreshes every shared breaker (one script call each, carrying the successes counted
 * since the last one). Failures, probes and operator changes are sent when they happen, by the
 * calling thread, which waits at most {@link RedisStoreSettings#timeout()}.
 *
 * <p>When Redis does not answer in time or fails, the store counts it ({@link #getFailureCount()}),
 * logs one WARN line for the episode and behaves as its {@link StoreFailureMode} says; callers never
 * see a Redis exception. While Redis is known to be down, callers do not try it at all; the refresh
 * thread tries once per period and, when Redis answers again, logs one INFO line and resynchronises
 * every breaker (operator changes made meanwhile are replayed first).
 */
public final class RedisStateStore implements StateStore, AutoCloseable {

    private static final Log LOG = LogFactory.getLog(RedisStateStore.class);
    private static final int COMMAND_THREADS = 8;
    private static final int COMMAND_QUEUE = 1024;
    /** The refresh thread's first operations also open the connection: they may take longer than the timeout. */
    private static final long WARM_UP_NANOS = TimeUnit.SECONDS.toNanos(2);

    private final StringRedisTemplate redis;
    private final RedisStoreSettings settings;
    private final Predicate<String> sharedNames;
    private final String instanceId = UUID.randomUUID().toString();
    private final BreakerScripts scripts = new BreakerScripts();
    private final StoreHealth health;
    private final ThreadPoolExecutor commands;
    private final ScheduledExecutorService refresher;
    private final List<RedisSharedState> attached = new CopyOnWriteArrayList<>();
    private final AtomicBoolean started = new AtomicBoolean();
    private final long timeoutNanos;
    private volatile boolean warm;

    /** A store sharing every breaker of the registries it is given to. */
    public RedisStateStore(RedisConnectionFactory connectionFactory, RedisStoreSettings settings) {
        this(connectionFactory, settings, name -> true);
    }

    /**
     * A store sharing the breakers whose names {@code sharedNames} accepts; the others stay in memory.
     */
    public RedisStateStore(RedisConnectionFactory connectionFactory, RedisStoreSettings settings,
                           Predicate<String> sharedNames) {
        this.redis = new StringRedisTemplate(Objects.requireNonNull(connectionFactory, "connectionFactory"));
        this.settings = Objects.requireNonNull(settings, "settings");
        this.sharedNames = Objects.requireNonNull(sharedNames, "sharedNames");
        this.health = new StoreHealth(settings);
        this.timeoutNanos = settings.timeout().toNanos();
        this.commands = new ThreadPoolExecutor(COMMAND_THREADS, COMMAND_THREADS, 30, TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(COMMAND_QUEUE), daemonThreads("breaker-redis-command-"),
                new ThreadPoolExecutor.AbortPolicy());
        this.commands.allowCoreThreadTimeOut(true);
        this.refresher = Executors.newSingleThreadScheduledExecutor(daemonThreads("breaker-redis-refresh-"));
    }

    @Override
    public SharedState attach(String name, BreakerConfig config) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(config, "config");
        if (!sharedNames.test(name)) {
            return null;
        }
        RedisSharedState shared = new RedisSharedState(this, name, config);
        attached.add(shared);
        if (started.compareAndSet(false, true)) {
            refresher.scheduleWithFixedDelay(this::refreshAll, 0L, settings.stateCacheTtl().toNanos(),
                    TimeUnit.NANOSECONDS);
        }
        return shared;
    }

    /** Whether Redis answered the last operation tried. */
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

    /** This instance's id in the fleet (the owner of the probe leases it wins). */
    public String getInstanceId() {
        return instanceId;
    }

    /** The store's settings. */
    public RedisStoreSettings getSettings() {
        return settings;
    }

    /** Stops the refresh thread; breakers attached to this store then fall back to their local state. */
    @Override
    public void close() {
        refresher.shutdownNow();
        commands.shutdownNow();
    }

    boolean isWarm() {
        return warm;
    }

    BreakerScripts scripts() {
        return scripts;
    }

    /**
     * Runs one script and waits at most the timeout. Returns {@code null} (and counts a failure)
     * on timeout, error, or when Redis is known to be down and {@code evenIfDown} is false.
     */
    List<?> run(RedisScript<List> script, List<String> keys, String[] args, boolean evenIfDown) {
        if (!evenIfDown && !health.isAvailable()) {
            health.skipped();
            return null;
        }
        Future<List> pending;
        try {
            pending = commands.submit(() -> redis.execute(script, keys, (Object[]) args));
        } catch (RejectedExecutionException busy) {
            health.failed(busy);
            return null;
        }
        try {
            List<?> answer = pending.get(evenIfDown && !warm ? WARM_UP_NANOS : timeoutNanos, TimeUnit.NANOSECONDS);
            warm = true;
            if (health.succeeded()) {
                attached.forEach(RedisSharedState::storeRecovered);
            }
            return answer;
        } catch (TimeoutException e) {
            pending.cancel(true);
            health.failed(new TimeoutException("no answer from Redis within " + settings.timeout().toMillis() + "ms"));
        } catch (ExecutionException e) {
            health.failed(e.getCause() != null ? e.getCause() : e);
        } catch (InterruptedException e) {
            pending.cancel(true);
            Thread.currentThread().interrupt();
            health.skipped();
        }
        return null;
    }

    /** What a breaker adopts when Redis gave no answer: nothing (fail open) or OPEN until the next refresh. */
    SharedVerdict unavailable() {
        return settings.failureMode() == StoreFailureMode.OPEN ? null
                : new SharedVerdict(State.OPEN, settings.stateCacheTtl().toNanos(), TransitionCause.FAILURE_RATE);
    }

    /**
     * Reads a script's answer, {@code [state, ms until a probe may be tried, cause, changed, since]};
     * an answer that cannot be read (another version of the scripts?) counts as a store failure.
     */
    Answer read(List<?> answer) {
        try {
            State state = State.valueOf(String.valueOf(answer.get(0)));
            long remainingMillis = Long.parseLong(String.valueOf(answer.get(1)));
            TransitionCause cause = TransitionCause.valueOf(String.valueOf(answer.get(2)));
            long since = Long.parseLong(String.valueOf(answer.get(4)));
            return new Answer(new SharedVerdict(state, remainingMillis * 1_000_000L, cause), since);
        } catch (RuntimeException unreadable) {
            health.failed(new IllegalStateException("unreadable answer from a breaker script: " + answer, unreadable));
            return null;
        }
    }

    /** A script's answer and the Redis time of the last change it reflects (newer answers win). */
    record Answer(SharedVerdict verdict, long since) {
    }

    String instanceIdArg() {
        return instanceId;
    }

    long keyExpiryMillis() {
        return settings.keyExpiry().toMillis();
    }

    /** Once per cache period, on the refresh thread: every shared breaker learns the fleet's state. */
    private void refreshAll() {
        try {
            for (RedisSharedState shared : attached) {
                if (!shared.refresh()) {
                    // Redis did not answer: the others would not either. Try again next period.
                    if (settings.failureMode() == StoreFailureMode.CLOSED) {
                        attached.forEach(RedisSharedState::holdOpen);
                    }
                    return;
                }
            }
        } catch (Throwable unexpected) {
            // Never let the periodic task die: the next period tries again.
            LOG.error("Refreshing shared breaker states failed unexpectedly", unexpected);
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
