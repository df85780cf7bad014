package io.breaker.dynamodb;

import io.breaker.BreakerConfig;
import io.breaker.State;
import io.breaker.TransitionCause;
import io.breaker.spi.SharedState;
import io.breaker.spi.SharedVerdict;
import io.breaker.spi.StateStore;
import io.breaker.spring.store.StoreFailureMode;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbResponse;

import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import java.util.function.LongConsumer;
import java.util.function.LongSupplier;
import java.util.function.Predicate;

/**
 * A {@link StateStore} that shares breakers' states between the instances of an application through
 * one DynamoDB table, one item per breaker (see docs/dynamodb.md for the layout and the IAM actions).
 *
 * <p>It keeps the Redis store's promises with conditional writes instead of scripts: the first
 * failure that trips the fleet fixes the reopen time (a trip is conditional on the CLOSED version it
 * read), exactly one instance wins the probe lease (a conditional update on the reopen time or an
 * expired lease), only the lease holder closes, the newest operator action wins, and decisions
 * compare timestamps (the instances' wall clocks: DynamoDB has none in expressions); the TTL
 * attribute is cleanup only.
 *
 * <p>Each shared breaker keeps its in-memory state machine as a cache: a healthy call never waits
 * for the table. There is no timer: the first call that finds the cached state older than
 * {@link DynamoStoreSettings#stateCacheTtl()} hands one refresh (one strongly consistent read, or
 * one update carrying the successes counted since the last one) to this store's bounded pool and
 * goes on. Failures, probes and operator changes are sent when they happen; the caller waits at most
 * {@link DynamoStoreSettings#timeout()}, and a late answer is applied when it comes.
 */
public final class DynamoStateStore implements StateStore, AutoCloseable {

    /** SLF4J: the AWS SDK's own logging API, always on the class path with it (Spring is optional here). */
    private static final Log LOG = LogFactory.getLog(DynamoStateStore.class);

    private static final int COMMAND_THREADS = 8;
    private static final int COMMAND_QUEUE = 1024;
    /** Refreshes in flight at once: at most half the threads, so transitions always find one. */
    private static final int REFRESH_SLOTS = COMMAND_THREADS / 2;
    /** Until the table has answered once (the client is still connecting), a refresh may wait this long. */
    private static final long WARM_UP_NANOS = TimeUnit.SECONDS.toNanos(10);
    /** Random bits in an instance id: 64, written as 11 URL-safe base64 characters. */
    private static final int INSTANCE_ID_BYTES = 8;

    private static final SecureRandom RANDOM = new SecureRandom();

    private final DynamoDbClient client;
    private final DynamoStoreSettings settings;
    private final Predicate<String> sharedNames;
    private final LongSupplier wallMillis;
    private final String instanceId = newInstanceId();
    private final TableHealth health;
    private final ClockSkew skew = new ClockSkew();
    private final ThreadPoolExecutor commands;
    private final Semaphore refreshSlots = new Semaphore(REFRESH_SLOTS);
    private final List<DynamoSharedState> attached = new CopyOnWriteArrayList<>();
    private final LongAdder callerTimeouts = new LongAdder();
    private final LongAdder deferredReports = new LongAdder();
    /** While the table is known to be down: when (System.nanoTime) the next refresh may try it. */
    private final AtomicLong nextRecoveryAttempt = new AtomicLong(System.nanoTime());

    /** Receives each breaker's item after a refresh the table answered (the fleet's runtime settings read it). */
    private volatile RefreshListener afterRefresh = (name, item, readAt) -> {};

    /** Receives the duration of each table operation, on the command thread that ran it (the latency meter). */
    private volatile LongConsumer operationTimes = nanos -> {};

    private volatile boolean warm;
    /** Whether this store created its client (then it closes it). */
    private volatile boolean ownsClient;

    /** A store sharing every breaker of the registries it is given to. */
    public DynamoStateStore(DynamoDbClient client, DynamoStoreSettings settings) {
        this(client, settings, name -> true, System::currentTimeMillis);
    }

    /**
     * A store sharing the breakers whose names {@code sharedNames} accepts, deciding times with
     * {@code wallMillis} (the instance's wall clock in milliseconds; tests offset it to skew instances).
     */
    public DynamoStateStore(
            DynamoDbClient client,
            DynamoStoreSettings settings,
            Predicate<String> sharedNames,
            LongSupplier wallMillis) {
        this.client = Objects.requireNonNull(client, "client");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.sharedNames = Objects.requireNonNull(sharedNames, "sharedNames");
        this.wallMillis = Objects.requireNonNull(wallMillis, "wallMillis");
        this.health = new TableHealth(settings);
        AtomicInteger threads = new AtomicInteger();
        this.commands = new ThreadPoolExecutor(
                COMMAND_THREADS,
                COMMAND_THREADS,
                30,
                TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(COMMAND_QUEUE),
                runnable -> {
                    Thread thread = new Thread(runnable, "breaker-dynamodb-command-" + threads.incrementAndGet());
                    thread.setDaemon(true);
                    return thread;
                },
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
        settings.requireItemExpiryCovers(name, config);
        DynamoSharedState shared = new DynamoSharedState(this, name, config);
        attached.add(shared);
        return shared;
    }

    /** Whether the table is taken to be reachable: {@code false} during an outage. */
    public boolean isAvailable() {
        return health.isAvailable();
    }

    /** Table operations that got no answer: timed out, failed, or skipped during an outage. */
    public long getFailureCount() {
        return health.failures();
    }

    /** Operations a calling thread stopped waiting for (no answer within the timeout, or the pool was full). */
    public long getTimeoutCount() {
        return callerTimeouts.sum();
    }

    /**
     * Times a report was left for the breaker's next refresh to send again: its write lost its condition
     * to other instances' writes every time it was tried (see {@link FleetTable#report}). The report is
     * kept as one the table did not answer is, so it still counts once.
     */
    public long getDeferredReportCount() {
        return deferredReports.sum();
    }

    /** A report lost every attempt to other instances' writes and waits to be sent again. */
    void reportDeferred() {
        deferredReports.increment();
    }

    /** Outages since the store was created. */
    public long getOutageCount() {
        return health.outages();
    }

    /**
     * Adds a receiver of each table operation's duration in nanoseconds, answered or failed, called on the
     * command thread that ran it (also for the operations a caller stopped waiting for).
     */
    synchronized void onOperationTimed(LongConsumer receiver) {
        operationTimes = operationTimes.andThen(Objects.requireNonNull(receiver, "receiver"));
    }

    /** The store's settings. */
    public DynamoStoreSettings getSettings() {
        return settings;
    }

    /**
     * This instance's wall clock minus DynamoDB's, estimated from the answers' {@code Date} headers
     * (one-second resolution, narrowed over many answers); empty before the first answer.
     */
    public Optional<Duration> getClockSkew() {
        return skew.bounds().map(ClockSkew.Bounds::estimate);
    }

    /** How far {@link #getClockSkew()} may be off; empty before the first answer. */
    public Optional<Duration> getClockSkewUncertainty() {
        return skew.bounds().map(ClockSkew.Bounds::uncertainty);
    }

    /** The shortest probe lease of the breakers shared through this store (empty before one is attached). */
    Optional<Duration> shortestProbeLease() {
        return attached.stream().map(DynamoSharedState::probeLease).min(Duration::compareTo);
    }

    /**
     * What this instance's last operator change of the breaker {@code name} did to the fleet
     * ({@link DynamoSharedState.OperatorChange#NOT_SENT} for a breaker not shared through this store).
     */
    DynamoSharedState.OperatorChange lastOperatorChange(String name) {
        DynamoSharedState shared = find(name);
        return shared == null ? DynamoSharedState.OperatorChange.NOT_SENT : shared.lastOperatorChange();
    }

    /** The fleet's state of the breaker {@code name} as this instance last heard it; {@code null} before that. */
    DynamoSharedState.@Nullable Seen seen(String name) {
        DynamoSharedState shared = find(name);
        return shared == null ? null : shared.seen();
    }

    /**
     * Changes the fleet's runtime settings of the breaker {@code name} (see {@link FleetTable#changeSettings}),
     * on the pool, waiting at most the timeout: {@code null} when no answer came in time.
     */
    FleetTable.@Nullable SettingsChange changeSettings(String name, FleetTable.SettingsEdit edit) {
        DynamoSharedState shared = find(name);
        FleetTable table = shared != null ? shared.table() : new FleetTable(this, name);
        java.util.concurrent.atomic.AtomicReference<FleetTable.SettingsChange> outcome =
                new java.util.concurrent.atomic.AtomicReference<>();
        FleetItem item = run(
                () -> {
                    FleetTable.SettingsChange change = table.changeSettings(edit);
                    outcome.set(change);
                    return change.item();
                },
                false,
                null);
        return item == null ? null : outcome.get();
    }

    /** Registers the one receiver of breakers' items after each refresh the table answered. */
    void afterRefresh(RefreshListener listener) {
        this.afterRefresh = Objects.requireNonNull(listener, "listener");
    }

    /** Receives a breaker's item after a refresh the table answered, on a command thread. */
    @FunctionalInterface
    interface RefreshListener {

        /**
         * @param name   the breaker
         * @param item   its item as the refresh found it
         * @param readAt when ({@link System#nanoTime()}) the refresh was sent
         */
        void refreshed(String name, FleetItem item, long readAt);
    }

    /** A breaker's refresh was answered (on a command thread). */
    void refreshed(String name, FleetItem item, long readAt) {
        try {
            afterRefresh.refreshed(name, item, readAt);
        } catch (RuntimeException unexpected) {
            LOG.error("Handing the fleet's settings of breaker '" + name + "' on failed unexpectedly", unexpected);
        }
    }

    private @Nullable DynamoSharedState find(String name) {
        for (DynamoSharedState shared : attached) {
            if (shared.name().equals(name)) {
                return shared;
            }
        }
        return null;
    }

    /** Stops the command pool; attached breakers then act on their local state. */
    @Override
    public void close() {
        commands.shutdownNow();
        if (ownsClient) {
            client.close();
        }
    }

    /** The client was created for this store alone: {@link #close()} closes it too. */
    DynamoStateStore owningClient() {
        ownsClient = true;
        return this;
    }

    // ---------------------------------------------------------------- what the breakers' links use

    DynamoDbClient client() {
        return client;
    }

    String table() {
        return settings.table();
    }

    /**
     * This instance's id: its key in the window's report sequences and the owner of a probe lease it
     * holds. Every report writes it into the item, so it is short (see docs/dynamodb.md, Cost).
     */
    String instanceId() {
        return instanceId;
    }

    /** 64 random bits, URL-safe base64 without padding: 11 characters. */
    static String newInstanceId() {
        byte[] bits = new byte[INSTANCE_ID_BYTES];
        RANDOM.nextBytes(bits);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bits);
    }

    long nowMillis() {
        return wallMillis.getAsLong();
    }

    long ttlNanos() {
        return settings.stateCacheTtl().toNanos();
    }

    long timeoutNanos() {
        return settings.timeout().toNanos();
    }

    boolean isWarm() {
        return warm;
    }

    boolean isSilent() {
        return !health.isAvailable() || health.isSilent();
    }

    /** The TTL attribute's value for an item written now: epoch seconds, the item expiry ahead. */
    long expiresAt() {
        return TimeUnit.MILLISECONDS.toSeconds(nowMillis())
                + settings.itemExpiry().toSeconds();
    }

    /** Records the server's clock from an answer's {@code Date} header. */
    void sawAnswer(DynamoDbResponse response, long sentMillis) {
        skew.observe(sentMillis, nowMillis(), response.sdkHttpResponse().firstMatchingHeader("Date"));
    }

    /** One table operation (a few requests at most), run on the pool. */
    interface Operation {
        FleetItem run();
    }

    /**
     * Runs an operation and waits at most the timeout. Returns the item it answers, or {@code null} on
     * timeout, error, interruption, or when the table is known to be down and {@code evenIfDown} is
     * false. A late answer goes to {@code late} and tells the store that the table is up, only slow.
     */
    @Nullable
    FleetItem run(Operation operation, boolean evenIfDown, @Nullable Consumer<FleetItem> late) {
        if (!evenIfDown && !health.isAvailable()) {
            health.skipped();
            return null;
        }
        CompletableFuture<FleetItem> pending;
        try {
            pending = CompletableFuture.supplyAsync(() -> timed(operation), commands);
        } catch (RejectedExecutionException busy) {
            health.failed(busy, false);
            if (!evenIfDown) {
                callerTimeouts.increment();
            }
            return null;
        }
        try {
            FleetItem item = pending.get(evenIfDown && !warm ? WARM_UP_NANOS : timeoutNanos(), TimeUnit.NANOSECONDS);
            answered();
            return item;
        } catch (TimeoutException e) {
            if (!evenIfDown) {
                callerTimeouts.increment();
            }
            notAnsweredInTime();
        } catch (ExecutionException e) {
            failedWith(e);
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        pending.whenComplete((item, error) -> {
            if (error == null) {
                answered();
                if (late != null) {
                    late.accept(item);
                }
            }
        });
        return null;
    }

    /**
     * Sends an operation without waiting for it, for a caller that must not block (an event loop):
     * the answer, when it comes, goes to {@code answer}. An answer later than the timeout, or an error,
     * tells the table's health what a waiting caller's would. Sends nothing while the table is known to
     * be down, or when the pool is full.
     */
    void runDetached(Operation operation, Consumer<FleetItem> answer) {
        if (!health.isAvailable()) {
            health.skipped();
            return;
        }
        long sent = System.nanoTime();
        try {
            CompletableFuture.supplyAsync(() -> timed(operation), commands).whenComplete((item, error) -> {
                if (error != null) {
                    failedWith(error);
                    return;
                }
                if (System.nanoTime() - sent > timeoutNanos()) {
                    notAnsweredInTime();
                }
                answered();
                answer.accept(item);
            });
        } catch (RejectedExecutionException busy) {
            health.failed(busy, false);
        }
    }

    /** An operation got no answer within the timeout: the table's health counts it as unanswered, not as an error. */
    private void notAnsweredInTime() {
        health.failed(
                new TimeoutException("no answer within " + settings.timeout().toMillis() + "ms"), false);
    }

    /** An operation failed: the table's health counts the client's error (the cause of the future's wrapper). */
    private void failedWith(Throwable error) {
        health.failed(error.getCause() != null ? error.getCause() : error, true);
    }

    private FleetItem timed(Operation operation) {
        long start = System.nanoTime();
        try {
            return operation.run();
        } finally {
            operationTimes.accept(System.nanoTime() - start);
        }
    }

    /**
     * Hands a breaker's refresh to the pool without waiting. Returns {@code false} only when every
     * refresh slot is taken (the breaker stays due and its next call asks again). While the table is
     * known to be down, one refresh per cache TTL for the whole store tries it; the others send nothing
     * (and with {@code reject}, hold their breaker OPEN).
     */
    boolean refreshSoon(DynamoSharedState shared) {
        if (commands.isShutdown()) {
            return true;
        }
        if (!health.isAvailable() && !recoveryAttemptDue()) {
            if (settings.failureMode() == StoreFailureMode.REJECT) {
                shared.holdOpen();
            }
            return true;
        }
        if (!refreshSlots.tryAcquire()) {
            return false;
        }
        try {
            commands.execute(() -> {
                try {
                    boolean answered = shared.refresh();
                    if (!answered && settings.failureMode() == StoreFailureMode.REJECT && !health.isAvailable()) {
                        attached.forEach(DynamoSharedState::holdOpen); // the table answers nobody: all read OPEN
                    }
                } catch (RuntimeException unexpected) {
                    LOG.error("Refreshing the shared state of a breaker failed unexpectedly", unexpected);
                } finally {
                    refreshSlots.release();
                }
            });
            return true;
        } catch (RejectedExecutionException busy) {
            refreshSlots.release();
            health.failed(busy, false);
            return true;
        }
    }

    /** While the table is down: of the refreshes due at once, exactly one per cache TTL tries it (a CAS). */
    private boolean recoveryAttemptDue() {
        long now = System.nanoTime();
        long due = nextRecoveryAttempt.get();
        return now - due >= 0 && nextRecoveryAttempt.compareAndSet(due, now + ttlNanos());
    }

    private void answered() {
        warm = true;
        if (health.succeeded()) {
            attached.forEach(DynamoSharedState::storeRecovered);
        }
    }

    /**
     * What a breaker adopts while the table is known to be unreachable: nothing with protect-locally
     * (the instance's own breaker decides), OPEN until the next refresh with reject.
     */
    @Nullable
    SharedVerdict unavailable() {
        return settings.failureMode() == StoreFailureMode.PROTECT_LOCALLY
                ? null
                : new SharedVerdict(State.OPEN, ttlNanos(), TransitionCause.STORE_UNAVAILABLE);
    }
}
