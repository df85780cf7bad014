package io.breaker.spring.actuate;

import io.breaker.BreakerConfig;
import io.breaker.BreakerRegistry;
import io.breaker.CallOutcome;
import io.breaker.CircuitBreaker;
import io.breaker.NanoClock;
import io.breaker.SlidingWindowType;
import io.breaker.State;
import io.breaker.spi.SharedState;
import io.breaker.spi.SharedVerdict;
import io.breaker.spi.StateStore;
import io.breaker.spring.actuate.SharedSettings.Fleet;
import io.breaker.spring.actuate.SharedSettings.Outcome;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runtime settings of a shared breaker, without Spring or Redis: a store that keeps the fleet's
 * settings as the Redis script does (compare-and-set on epoch and version, a new epoch when it holds
 * none), and can be made unreachable, silent, or written by someone else.
 */
@ExtendWith(OutputCaptureExtension.class)
class SharedRuntimeSettingsTest {

    private final BreakerConfig config = BreakerConfig.builder()
            .slidingWindow(SlidingWindowType.COUNT_BASED, 10)
            .minimumNumberOfCalls(5)
            .failureRateThreshold(50)
            .waitDurationInOpenState(Duration.ofSeconds(5))
            .build();
    private final FakeStore store = new FakeStore();
    /** Two instances of one application sharing the breaker "dependency" through the same store. */
    private final Instance a = new Instance();

    private final Instance b = new Instance();

    @Test
    void aChangeOnAStaleViewIsRefusedWithTheFleetsSettingsWhichTheInstanceAdopts() {
        assertThat(a.post("failure-rate-threshold", 30)).isInstanceOf(RuntimeSettings.Result.Applied.class);

        RuntimeSettings.Result stale = b.post("wait-duration-in-open-state", "10s");

        assertThat(stale).isInstanceOf(RuntimeSettings.Result.Stale.class);
        StaleDescriptor conflict = ((RuntimeSettings.Result.Stale) stale).conflict();
        assertThat(conflict.status()).isEqualTo(409);
        assertThat(conflict.current().settings().get("failure-rate-threshold").value())
                .isEqualTo(30f);
        assertThat(b.breaker.getConfig().getFailureRateThreshold()).isEqualTo(30f);

        RuntimeSettings.Result again = b.post("wait-duration-in-open-state", "10s");

        assertThat(again).isInstanceOf(RuntimeSettings.Result.Applied.class);
        assertThat(store.hash)
                .containsEntry("failure-rate-threshold", "30")
                .containsEntry("wait-duration-in-open-state", "10s");
        a.refresh();
        assertThat(a.breaker.getConfig().getWaitDurationInOpenState()).isEqualTo(Duration.ofSeconds(10));
        assertThat(a.breaker.getConfig().getFailureRateThreshold()).isEqualTo(30f);
    }

    @Test
    void aNewEpochIsAdoptedWhateverItsVersionAndALostStoreGetsTheSettingsBack() {
        a.post("sliding-window-size", 20);
        b.refresh();
        assertThat(b.breaker.getConfig().getSlidingWindowSize()).isEqualTo(20);
        String before = store.epoch;

        store.lose();
        b.refresh(); // b finds nothing and puts back what it remembers, under a new epoch

        assertThat(store.epoch).isNotEqualTo(before);
        assertThat(store.version).isEqualTo(1);
        assertThat(store.hash).containsEntry("sliding-window-size", "20");
        RuntimeSettings.Result ten = a.post("sliding-window-size", 10); // a's view is the lost epoch
        assertThat(ten).isInstanceOf(RuntimeSettings.Result.Stale.class);
        assertThat(a.post("sliding-window-size", 10)).isInstanceOf(RuntimeSettings.Result.Applied.class);
        b.refresh();
        assertThat(a.breaker.getConfig().getSlidingWindowSize()).isEqualTo(10);
        assertThat(b.breaker.getConfig().getSlidingWindowSize()).isEqualTo(10);

        store.lose();
        a.post("failure-rate-threshold", 40); // version 1 of a new epoch: b, at version 2 of the old one, adopts it
        b.refresh();
        assertThat(b.breaker.getConfig().getFailureRateThreshold()).isEqualTo(40f);
        assertThat(b.breaker.getConfig().getSlidingWindowSize()).isEqualTo(10);
    }

    @Test
    void aReadSentBeforeAChangeNeverUndoesItButAStoreThatWentBackIsBelieved() {
        a.post("failure-rate-threshold", 30);
        b.refresh();
        Fleet before = store.read();
        long readSentEarlier = System.nanoTime();
        a.post("failure-rate-threshold", 40);

        a.seen(before, readSentEarlier); // a refresh that crossed the change answers late

        assertThat(a.breaker.getConfig().getFailureRateThreshold()).isEqualTo(40f);

        // A failover to a replica that had not received the newest version: the same epoch, older.
        store.version = before.version();
        store.hash = new LinkedHashMap<>(before.overrides());
        a.refresh();
        assertThat(a.breaker.getConfig().getFailureRateThreshold()).isEqualTo(30f);
        assertThat(a.post("minimum-number-of-calls", 6)).isInstanceOf(RuntimeSettings.Result.Applied.class);
    }

    @Test
    void aChangeTheStoreDidNotTakeStaysLocalTakesNoVersionAndGivesWayToTheFleet(CapturedOutput output) {
        a.post("failure-rate-threshold", 30);
        b.refresh();
        long version = store.version;

        store.reachable = false;
        SettingsDescriptor alone = applied(a.post("failure-rate-threshold", 40));
        store.reachable = true;
        store.silent = true;
        SettingsDescriptor unknown = applied(b.post("minimum-number-of-calls", 8));
        store.silent = false;

        assertThat(alone.fleetChanged()).isEqualTo(false);
        assertThat(alone.version()).isEqualTo(version);
        assertThat(unknown.fleetChanged()).isEqualTo("unknown");
        assertThat(unknown.version()).isEqualTo(version);
        assertThat(output).contains("fleetChanged=false", "fleetChanged=unknown");
        assertThat(a.breaker.getConfig().getFailureRateThreshold()).isEqualTo(40f);

        b.post("wait-duration-in-open-state", "10s"); // the fleet's next version
        a.refresh();
        b.refresh();

        for (Instance instance : new Instance[] {a, b}) {
            assertThat(instance.breaker.getConfig().getFailureRateThreshold()).isEqualTo(30f);
            assertThat(instance.breaker.getConfig().getMinimumNumberOfCalls()).isEqualTo(5);
            assertThat(instance.breaker.getConfig().getWaitDurationInOpenState())
                    .isEqualTo(Duration.ofSeconds(10));
        }
    }

    @Test
    void aChangeMadeAloneGivesWayToTheFleetOnceTheStoreAnswers() {
        a.post("failure-rate-threshold", 30);
        store.reachable = false;
        a.post("failure-rate-threshold", 40);
        store.reachable = true;

        a.refresh();

        assertThat(a.breaker.getConfig().getFailureRateThreshold()).isEqualTo(30f);
    }

    @Test
    void settingsFromTheStoreAreCheckedAsAPostAndLoggedEscaped(CapturedOutput output) {
        store.refusal = "breakers.store.key-expiry must be longer than the wait";
        store.writeByHand(Map.of("wait-duration-in-open-state", "8d"), "mallory\r\nWARN forged");
        a.refresh();
        store.writeByHand(Map.of("failure-rate-threshold", "150"), "mallory\r\nWARN forged");
        b.refresh();
        store.writeByHand(Map.of("sliding-window-type", "TIME_BASED"), "x");
        a.refresh();

        assertThat(a.breaker.getConfig().getWaitDurationInOpenState()).isEqualTo(Duration.ofSeconds(5));
        assertThat(b.breaker.getConfig().getFailureRateThreshold()).isEqualTo(50f);
        assertThat(a.breaker.getConfig().getSlidingWindowType()).isEqualTo(SlidingWindowType.COUNT_BASED);
        assertThat(output)
                .contains("cannot apply here, the breaker keeps its settings: breakers.store.key-expiry")
                .contains("failure-rate-threshold must be")
                .contains("a running breaker keeps its window type")
                .contains("principal=mallory\\r\\nWARN forged")
                .doesNotContain("\nWARN forged");

        store.refusal = null;
        store.writeByHand(Map.of("failure-rate-threshold", "35"), "mallory\nWARN forged");
        a.refresh();
        assertThat(a.breaker.getConfig().getFailureRateThreshold()).isEqualTo(35f);
        assertThat(output)
                .contains("principal=mallory\\nWARN forged from=fleet")
                .doesNotContain("\nWARN forged");
    }

    @Test
    void aChangeThatChangesNothingIsNoneAndWritesNothing(CapturedOutput output) {
        SettingsDescriptor first = applied(a.post("failure-rate-threshold", 30));
        int writes = store.writes;
        long version = store.version;
        int audits = audits(output);

        SettingsDescriptor same = applied(a.post("failure-rate-threshold", 30.0));
        SettingsDescriptor reset = applied(a.reset());
        SettingsDescriptor resetAgain = applied(a.reset());
        b.refresh();
        SettingsDescriptor configured = applied(b.post("sliding-window-size", null));

        assertThat(first.changed()).isTrue();
        assertThat(same.changed()).isFalse();
        assertThat(same.fleetChanged()).isEqualTo(false);
        assertThat(same.version()).isEqualTo(version);
        assertThat(reset.changed()).isTrue();
        assertThat(resetAgain.changed()).isFalse();
        assertThat(resetAgain.version()).isEqualTo(version + 1);
        assertThat(configured.changed()).isFalse();
        assertThat(store.writes).isEqualTo(writes + 1);
        assertThat(audits(output)).isEqualTo(audits + 1);
    }

    private static int audits(CapturedOutput output) {
        return (int) output.getOut()
                .lines()
                .filter(line -> line.contains("fleetChanged="))
                .count();
    }

    private static SettingsDescriptor applied(RuntimeSettings.Result result) {
        assertThat(result).isInstanceOf(RuntimeSettings.Result.Applied.class);
        return ((RuntimeSettings.Result.Applied) result).settings();
    }

    /** One instance: its registry, with the breaker shared, and its runtime settings on the store. */
    private final class Instance {

        final BreakerRegistry registry = BreakerRegistry.of(config, Map.of(), System::nanoTime, new Sharing());
        final CircuitBreaker breaker = registry.breaker("dependency");
        final RuntimeSettings settings = new RuntimeSettings(
                registry,
                null,
                BreakerTransitionHistory.bind(registry, 10),
                Clock.systemUTC(),
                store.view(),
                getClass().getClassLoader());

        RuntimeSettings.Result post(String property, Object value) {
            Map<String, Object> body = new LinkedHashMap<>();
            body.put(property, value);
            return settings.change("dependency", body, "operator");
        }

        RuntimeSettings.Result reset() {
            return settings.reset("dependency", "operator");
        }

        /** As the store does after a refresh that Redis answered. */
        void refresh() {
            seen(store.read(), System.nanoTime());
        }

        void seen(Fleet fleet, long readAt) {
            settings.seen("dependency", fleet, readAt);
        }
    }

    /**
     * The fleet's settings as change-settings.lua keeps them: one hash, an epoch chosen when it is
     * created, a version raised by each change that changes something.
     */
    private static final class FakeStore {

        String epoch = "";
        long version;
        Map<String, String> hash = new LinkedHashMap<>();
        String principal;
        boolean reachable = true;
        /** Answers no change in time, and takes none (the change was lost on the way). */
        boolean silent;

        String refusal;
        int writes;

        Fleet read() {
            return epoch.isEmpty() ? Fleet.NONE : new Fleet(epoch, version, hash, principal);
        }

        void lose() {
            epoch = "";
            version = 0;
            hash = new LinkedHashMap<>();
            principal = null;
        }

        void writeByHand(Map<String, String> overrides, String who) {
            epoch = UUID.randomUUID().toString();
            version = 99;
            hash = new LinkedHashMap<>(overrides);
            principal = who;
        }

        Outcome change(Fleet base, Map<String, String> changes, String who) {
            if (!reachable) {
                return new Outcome.Unreachable();
            }
            if (silent) {
                return new Outcome.Unanswered();
            }
            if (epoch.isEmpty()) {
                Map<String, String> created = new LinkedHashMap<>(base.overrides());
                apply(created, changes);
                if (created.isEmpty()) {
                    return new Outcome.Unchanged(Fleet.NONE);
                }
                epoch = UUID.randomUUID().toString();
                version = 1;
                hash = created;
                principal = who;
                writes++;
                return new Outcome.Applied(read());
            }
            if (!epoch.equals(base.epoch()) || version != base.version()) {
                return new Outcome.Stale(read());
            }
            Map<String, String> changed = new LinkedHashMap<>(hash);
            apply(changed, changes);
            if (changed.equals(hash)) {
                return new Outcome.Unchanged(read());
            }
            hash = changed;
            version++;
            principal = who;
            writes++;
            return new Outcome.Applied(read());
        }

        private static void apply(Map<String, String> overrides, Map<String, String> changes) {
            changes.forEach((property, value) -> {
                if (value == null) {
                    overrides.remove(property);
                } else {
                    overrides.put(property, value);
                }
            });
        }

        SharedSettings view() {
            return new SharedSettings() {
                @Override
                public Outcome change(String breaker, Fleet base, Map<String, String> changes, String who) {
                    return FakeStore.this.change(base, changes, who);
                }

                @Override
                public String refusal(String breaker, BreakerConfig config) {
                    return refusal != null
                                    && config.getWaitDurationInOpenState().compareTo(Duration.ofDays(1)) > 0
                            ? refusal
                            : null;
                }

                @Override
                public void onChange(Listener listener) {}
            };
        }
    }

    /** A store that shares every breaker and does nothing else: only isShared() matters here. */
    private static final class Sharing implements StateStore {

        @Override
        public SharedState attach(String name, BreakerConfig config) {
            return new SharedState() {
                @Override
                public void connect(Consumer<SharedVerdict> adopter, NanoClock clock) {}

                @Override
                public void recordSuccess() {}

                @Override
                public SharedVerdict recordFailure(CallOutcome outcome) {
                    return null;
                }

                @Override
                public boolean allowsLocalTrip() {
                    return true;
                }

                @Override
                public SharedVerdict tryAcquireProbe() {
                    return null;
                }

                @Override
                public SharedVerdict probeFailed() {
                    return null;
                }

                @Override
                public SharedVerdict probesSucceeded() {
                    return null;
                }

                @Override
                public SharedVerdict operatorSets(State target) {
                    return null;
                }
            };
        }
    }
}
