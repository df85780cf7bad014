package io.breaker.dynamodb;

import io.breaker.BreakerConfig;
import io.breaker.BreakerRegistry;
import io.breaker.CircuitBreaker;
import io.breaker.NanoClock;
import io.breaker.SlidingWindowType;
import io.breaker.State;
import io.breaker.spi.SharedState;
import io.breaker.spi.SharedVerdict;
import io.breaker.spring.store.StoreFailureMode;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * One test's stores on the class's dynalite server: a table of its own (created with the fixture),
 * stores on it, links and breakers on those stores. After each test the server is resumed (a test
 * may have paused it) and every store made here is closed. Registered on an instance field:
 *
 * <pre>{@code
 * @RegisterExtension
 * static final Dynalite DYNALITE = new Dynalite();
 *
 * @RegisterExtension
 * final DynamoStores stores = new DynamoStores(DYNALITE);
 * }</pre>
 */
final class DynamoStores implements AfterEachCallback {

    private final Dynalite dynalite;
    private final String table;
    /** Reads items for the assertions. */
    private final DynamoDbClient reader;

    private final List<DynamoStateStore> opened = new CopyOnWriteArrayList<>();

    DynamoStores(Dynalite dynalite) {
        this.dynalite = dynalite;
        this.table = dynalite.createTable();
        this.reader = dynalite.client();
    }

    /**
     * A count-based window of 10 calls evaluated from {@code minimumCalls}, tripping at a 50% failure
     * rate and open for 60 s: the breaker settings these tests share, to be completed and built.
     */
    static BreakerConfig.Builder windowOfTen(int minimumCalls) {
        return BreakerConfig.builder()
                .slidingWindowType(SlidingWindowType.COUNT_BASED)
                .slidingWindowSize(10)
                .minimumNumberOfCalls(minimumCalls)
                .failureRateThreshold(50)
                .waitDurationInOpenState(Duration.ofSeconds(60));
    }

    /** A count-based window of 1000 calls evaluated from 1000: it holds every report of a test and never trips. */
    static final BreakerConfig NEVER_TRIPS = BreakerConfig.builder()
            .slidingWindowType(SlidingWindowType.COUNT_BASED)
            .slidingWindowSize(1000)
            .minimumNumberOfCalls(1000)
            .failureRateThreshold(50)
            .waitDurationInOpenState(Duration.ofSeconds(60))
            .build();

    @Override
    public void afterEach(ExtensionContext context) throws Exception {
        dynalite.resume();
        opened.forEach(DynamoStateStore::close);
    }

    /** This test's table. */
    String table() {
        return table;
    }

    /** {@link Dynalite#patient} settings on this test's table. */
    DynamoStoreSettings patient() {
        return Dynalite.patient(table);
    }

    /** Settings on this test's table with the given waits, failure mode and silence before an outage; items kept 1 day. */
    DynamoStoreSettings settings(
            Duration stateCacheTtl, Duration timeout, StoreFailureMode failureMode, Duration outageAfter) {
        return new DynamoStoreSettings(table, stateCacheTtl, timeout, failureMode, Duration.ofDays(1), outageAfter);
    }

    /** A client of the server changed by {@code configure} (see {@link Dynalite#client(Consumer)}). */
    DynamoDbClient client(Consumer<ClientOverrideConfiguration.Builder> configure) {
        return dynalite.client(configure);
    }

    /** A store with a client of its own, sharing every breaker, on the system's wall clock; closed after the test. */
    DynamoStateStore store(DynamoStoreSettings settings) {
        return store(dynalite.client(), settings);
    }

    /** A store on {@code client}, sharing every breaker, on the system's wall clock; closed after the test. */
    DynamoStateStore store(DynamoDbClient client, DynamoStoreSettings settings) {
        return opened(new DynamoStateStore(client, settings));
    }

    /** A store with a client of its own deciding times with {@code wallMillis}; closed after the test. */
    DynamoStateStore store(DynamoStoreSettings settings, LongSupplier wallMillis) {
        return store(dynalite.client(), settings, wallMillis);
    }

    /** A store on {@code client} deciding times with {@code wallMillis}; closed after the test. */
    DynamoStateStore store(DynamoDbClient client, DynamoStoreSettings settings, LongSupplier wallMillis) {
        return opened(new DynamoStateStore(client, settings, name -> true, wallMillis));
    }

    /**
     * Breaker {@code name} of a registry of {@code config} on {@code store}, once the store's first
     * refresh was answered.
     */
    CircuitBreaker breaker(DynamoStateStore store, BreakerConfig config, String name) throws InterruptedException {
        CircuitBreaker breaker =
                BreakerRegistry.of(config, Map.of(), NanoClock.system(), store).breaker(name);
        Dynalite.await(store::isWarm);
        return breaker;
    }

    /** Breaker {@code name}'s link through {@code store}, connected on {@code clock}, adopting nothing; not waited for. */
    static SharedState link(DynamoStateStore store, String name, BreakerConfig config, NanoClock clock) {
        SharedState link = store.attach(name, config);
        link.connect(verdict -> {}, clock);
        return link;
    }

    /** {@link #link}, once the store's first refresh was answered. */
    static SharedState warmLink(DynamoStateStore store, String name, BreakerConfig config, NanoClock clock)
            throws InterruptedException {
        SharedState link = link(store, name, config, clock);
        Dynalite.await(store::isWarm);
        return link;
    }

    /** A link and the verdicts it adopted, in order. */
    record Seeing(SharedState link, List<SharedVerdict> adopted) {}

    /** Breaker {@code name}'s link through {@code store}, connected on {@code clock}, once it adopted its first verdict. */
    static Seeing seeingLink(DynamoStateStore store, String name, BreakerConfig config, NanoClock clock)
            throws InterruptedException {
        SharedState link = store.attach(name, config);
        List<SharedVerdict> adopted = new CopyOnWriteArrayList<>();
        link.connect(adopted::add, clock);
        Dynalite.await(() -> !adopted.isEmpty());
        return new Seeing(link, adopted);
    }

    /**
     * Every link asks for the probe lease at the same moment, each on a thread of its own; returns the
     * states they answered, in the order of {@code links}.
     */
    static List<State> probeAtOnce(List<SharedState> links) throws Exception {
        ExecutorService threads = Executors.newFixedThreadPool(links.size());
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<SharedVerdict>> answers = new ArrayList<>();
            for (SharedState link : links) {
                answers.add(threads.submit(() -> {
                    start.await();
                    return link.tryAcquireProbe();
                }));
            }
            start.countDown();
            List<State> states = new ArrayList<>();
            for (Future<SharedVerdict> answer : answers) {
                states.add(answer.get(30, TimeUnit.SECONDS).state());
            }
            return states;
        } finally {
            threads.shutdownNow();
        }
    }

    /** Breaker {@code name}'s item as the table has it now (a strongly consistent read); empty if there is none. */
    Map<String, AttributeValue> item(String name) {
        return reader.getItem(request -> request.tableName(table)
                        .key(Map.of("breaker", AttributeValue.fromS(name)))
                        .consistentRead(true))
                .item();
    }

    private DynamoStateStore opened(DynamoStateStore store) {
        opened.add(store);
        return store;
    }
}
