package io.breaker.dynamodb;

import io.breaker.BreakerConfig;
import io.breaker.spi.SharedState;
import io.breaker.spring.actuate.SharedSettings.Fleet;
import io.breaker.spring.actuate.SharedSettings.Outcome;
import io.breaker.spring.store.StoreFailureMode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Settings changed at runtime, shared through the table ({@link DynamoSharedSettings}) on a real
 * DynamoDB API (dynalite): compare-and-set on the fleet's epoch and version, created again under a new
 * epoch after the item was lost, and read by every instance with its breaker's next refresh.
 */
class DynamoSharedSettingsTest {

    @RegisterExtension
    static final Dynalite DYNALITE = new Dynalite();

    private static final BreakerConfig CONFIG = DynamoStores.windowOfTen(4).build();
    private static final Map<String, String> TWENTY = Map.of("sliding-window-size", "20");

    @RegisterExtension
    final DynamoStores stores = new DynamoStores(DYNALITE);

    private DynamoSharedSettings instance() {
        return new DynamoSharedSettings(stores.store(stores.patient()));
    }

    private static Map<String, String> reset(String property) {
        Map<String, String> changes = new HashMap<>();
        changes.put(property, null);
        return changes;
    }

    @Test
    void theFirstChangeCreatesTheFleetsSettingsAtVersionOne() {
        Outcome outcome = instance().change("pay", Fleet.NONE, TWENTY, "alice");

        assertThat(outcome).isInstanceOf(Outcome.Applied.class);
        Fleet fleet = ((Outcome.Applied) outcome).fleet();
        assertThat(fleet.epoch()).isNotEmpty();
        assertThat(fleet.version()).isEqualTo(1);
        assertThat(fleet.overrides()).isEqualTo(TWENTY);
        assertThat(fleet.principal()).isEqualTo("alice");
    }

    @Test
    void aChangeOnSettingsThatMovedOnChangesNothing() {
        DynamoSharedSettings a = instance();
        DynamoSharedSettings b = instance();
        Fleet first = ((Outcome.Applied) a.change("pay", Fleet.NONE, TWENTY, "alice")).fleet();

        Outcome fromNothing = b.change("pay", Fleet.NONE, Map.of("sliding-window-size", "30"), "bob");
        assertThat(fromNothing).isEqualTo(new Outcome.Stale(first));

        Outcome second = b.change("pay", first, Map.of("failure-rate-threshold", "25"), "bob");
        assertThat(second).isInstanceOf(Outcome.Applied.class);
        Fleet now = ((Outcome.Applied) second).fleet();
        assertThat(now.epoch()).isEqualTo(first.epoch());
        assertThat(now.version()).isEqualTo(2);
        assertThat(now.overrides()).isEqualTo(Map.of("sliding-window-size", "20", "failure-rate-threshold", "25"));
        assertThat(now.principal()).isEqualTo("bob");

        assertThat(a.change("pay", first, Map.of("sliding-window-size", "40"), "alice"))
                .isEqualTo(new Outcome.Stale(now));
    }

    @Test
    void aChangeThatChangesNothingWritesNothing() {
        DynamoSharedSettings a = instance();
        assertThat(a.change("pay", Fleet.NONE, reset("sliding-window-size"), null))
                .isEqualTo(new Outcome.Unchanged(Fleet.NONE));
        Fleet first = ((Outcome.Applied) a.change("pay", Fleet.NONE, TWENTY, "alice")).fleet();

        assertThat(a.change("pay", first, TWENTY, "bob")).isEqualTo(new Outcome.Unchanged(first));
    }

    @Test
    void returningEverySettingToItsConfiguredValueKeepsTheEpoch() {
        DynamoSharedSettings a = instance();
        Fleet first = ((Outcome.Applied) a.change("pay", Fleet.NONE, TWENTY, "alice")).fleet();

        Outcome back = a.change("pay", first, reset("sliding-window-size"), null);

        assertThat(back).isEqualTo(new Outcome.Applied(new Fleet(first.epoch(), 2, Map.of(), null)));
    }

    @Test
    void afterTheItemWasLostAChangeCreatesTheSettingsAgainUnderANewEpoch() {
        DynamoSharedSettings a = instance();
        Fleet first = ((Outcome.Applied) a.change("pay", Fleet.NONE, TWENTY, "alice")).fleet();
        DYNALITE.client()
                .deleteItem(
                        request -> request.tableName(stores.table()).key(Map.of(ItemLayout.KEY, ItemLayout.s("pay"))));

        Outcome again = a.change("pay", first, Map.of("failure-rate-threshold", "25"), "bob");

        assertThat(again).isInstanceOf(Outcome.Applied.class);
        Fleet now = ((Outcome.Applied) again).fleet();
        assertThat(now.epoch()).isNotEqualTo(first.epoch()).isNotEmpty();
        assertThat(now.version()).isEqualTo(1);
        assertThat(now.overrides()) // what the instance remembered, with the change
                .isEqualTo(Map.of("sliding-window-size", "20", "failure-rate-threshold", "25"));
    }

    @Test
    void aChangeWithoutAnAnswerInTimeIsUnanswered() throws Exception {
        DynamoSharedSettings a = new DynamoSharedSettings(stores.store(
                stores.patient().withTimeout(Duration.ofMillis(200)).withOutageAfter(Duration.ofSeconds(30))));
        a.change("warm-up", Fleet.NONE, Map.of(), null); // the client's first connection is not timed here

        DYNALITE.pause();

        assertThat(a.change("pay", Fleet.NONE, TWENTY, "alice")).isEqualTo(new Outcome.Unanswered());
    }

    /** The settings live in the breaker's item; the breaker's state and version stay as they were. */
    @Test
    void theSettingsAreKeptBesideTheStateWithoutMovingItsVersion() {
        instance().change("pay", Fleet.NONE, TWENTY, "alice");

        Map<String, AttributeValue> item = stores.item("pay");

        assertThat(item.get(ItemLayout.VERSION).n()).isEqualTo("1");
        assertThat(item.get(ItemLayout.STATE).s()).isEqualTo("CLOSED");
        assertThat(item.get(ItemLayout.SETTINGS_VERSION).n()).isEqualTo("1");
        assertThat(item.get(ItemLayout.SETTINGS).m()).containsEntry("sliding-window-size", ItemLayout.s("20"));
        assertThat(item.get(ItemLayout.SETTINGS_BY).s()).isEqualTo("alice");
    }

    @Test
    void everyInstanceReadsTheFleetsSettingsWithItsBreakersNextRefresh() throws Exception {
        DynamoSharedSettings a = instance();
        DynamoStateStore storeB = stores.store(stores.patient());
        DynamoSharedSettings b = new DynamoSharedSettings(storeB);
        List<Fleet> seenByB = new CopyOnWriteArrayList<>();
        List<Long> readAt = new CopyOnWriteArrayList<>();
        b.onChange((breaker, fleet, at) -> {
            if (breaker.equals("pay")) {
                seenByB.add(fleet);
                readAt.add(at);
            }
        });
        AtomicLong nanos = new AtomicLong();
        SharedState shared = DynamoStores.link(storeB, "pay", CONFIG, nanos::get); // its first refresh
        Dynalite.await(() -> !seenByB.isEmpty());
        assertThat(seenByB).containsOnly(Fleet.NONE);

        long beforeRefresh = System.nanoTime();
        Fleet changed = ((Outcome.Applied) a.change("pay", Fleet.NONE, TWENTY, "alice")).fleet();
        nanos.addAndGet(Duration.ofSeconds(10).toNanos()); // one cache TTL later
        shared.touch();

        Dynalite.await(() -> seenByB.get(seenByB.size() - 1).sameAs(changed));
        assertThat(seenByB.get(seenByB.size() - 1)).isEqualTo(changed);
        assertThat(readAt.get(readAt.size() - 1)).isGreaterThan(beforeRefresh);
    }

    @Test
    void settingsTheItemWouldNotOutliveAreRefused() {
        DynamoSharedSettings a = new DynamoSharedSettings(stores.store(new DynamoStoreSettings(
                stores.table(),
                Duration.ofSeconds(1),
                Duration.ofMillis(500),
                StoreFailureMode.PROTECT_LOCALLY,
                Duration.ofHours(1),
                Duration.ofSeconds(30))));

        assertThat(a.refusal("pay", CONFIG)).isNull();
        assertThat(a.refusal(
                        "pay",
                        BreakerConfig.builder()
                                .waitDurationInOpenState(Duration.ofHours(2))
                                .build()))
                .contains("breakers.store.dynamodb.item-expiry")
                .contains("'pay'");
    }
}
