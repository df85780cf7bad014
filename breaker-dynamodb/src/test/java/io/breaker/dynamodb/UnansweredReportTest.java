package io.breaker.dynamodb;

import io.breaker.BreakerConfig;
import io.breaker.CallOutcome;
import io.breaker.NanoClock;
import io.breaker.spi.SharedState;
import io.breaker.spring.store.StoreFailureMode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Failure reports sent while the table is paused (dynalite under SIGSTOP) get no answer: the client
 * gives up on them. They are kept and sent again once the table answers, and counted once.
 */
class UnansweredReportTest {

    @RegisterExtension
    static final Dynalite DYNALITE = new Dynalite();

    private static final BreakerConfig CONFIG = DynamoStores.windowOfTen(4).build();

    @RegisterExtension
    final DynamoStores stores = new DynamoStores(DYNALITE);

    /**
     * A store whose client gives up on a request after 1 s (a table paused longer gives it no answer),
     * waiting 100 ms for an answer and caching the state for 300 ms; no outage is declared for 10 s.
     */
    private SharedState link(AtomicInteger operationsEnded) throws InterruptedException {
        DynamoStateStore store = stores.store(
                stores.client(c -> c.apiCallTimeout(Duration.ofSeconds(1))),
                stores.settings(
                        Duration.ofMillis(300),
                        Duration.ofMillis(100),
                        StoreFailureMode.PROTECT_LOCALLY,
                        Duration.ofSeconds(10)));
        store.onOperationTimed(nanos -> operationsEnded.incrementAndGet());
        return DynamoStores.warmLink(store, "pay", CONFIG, NanoClock.system());
    }

    @Test
    void failuresReportedWhileTheTableIsPausedReachItOnceEachWhenItAnswers() throws Exception {
        AtomicInteger ended = new AtomicInteger();
        SharedState link = link(ended);
        DYNALITE.pause();
        int before = ended.get();

        for (int i = 0; i < 2; i++) {
            assertThat(link.recordFailure(CallOutcome.FAILURE)).isNull(); // no answer within the store's timeout
        }
        Dynalite.await(() -> ended.get() >= before + 2); // the client gave up on both reports

        DYNALITE.resume();
        Dynalite.await(() -> {
            link.touch(); // each refresh sends the unacknowledged report again
            return Long.parseLong(item().get("c_failed").n()) > 0;
        });
        int refreshed = ended.get();
        Dynalite.await(() -> {
            link.touch();
            return ended.get() > refreshed + 2; // a few more refreshes
        });
        Map<String, AttributeValue> item = item();
        assertThat(item.get("c_failed").n()).isEqualTo("2");
        assertThat(item.get("c_calls").n()).isEqualTo("2");
    }

    @Test
    void enoughFailuresReportedWhileTheTableIsPausedTripTheFleetOnceItAnswers() throws Exception {
        AtomicInteger ended = new AtomicInteger();
        SharedState link = link(ended);
        DYNALITE.pause();
        int before = ended.get();

        for (int i = 0; i < CONFIG.getMinimumNumberOfCalls(); i++) {
            link.recordFailure(CallOutcome.FAILURE);
        }
        Dynalite.await(() -> ended.get() >= before + CONFIG.getMinimumNumberOfCalls());

        DYNALITE.resume();
        Dynalite.await(() -> {
            link.touch();
            return "OPEN".equals(item().get("state").s());
        });
        assertThat(item().get("tripped").s()).isEqualTo("4,4,0"); // as one breaker with these settings would
    }

    private Map<String, AttributeValue> item() {
        return stores.item("pay");
    }
}
