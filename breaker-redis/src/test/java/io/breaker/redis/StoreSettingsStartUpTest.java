package io.breaker.redis;

import io.breaker.BreakerConfig;
import io.breaker.BreakerRegistry;
import io.breaker.redis.test.WithRedisAutoConfiguration;
import io.breaker.spring.autoconfigure.BreakerAutoConfiguration;
import io.breaker.spring.store.StoreFailureMode;
import io.breaker.spring.test.BootLine;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * What a user sees at start-up for each store setting: a real {@code SpringApplication}, so the
 * failure report comes from the analyzers Spring Boot loads (the starter's and this module's, in
 * their real order).
 */
@ExtendWith(OutputCaptureExtension.class)
@Tag(BootLine.TAG)
class StoreSettingsStartUpTest {

    @RegisterExtension
    static final RedisServer redis = new RedisServer();

    private static final Pattern DEPRECATION = Pattern.compile("breakers\\.store\\.failure-mode=\\S+ is deprecated");

    @Test
    void anUnknownFailureModeStopsStartUpListingTheAllowedValues(CapturedOutput output) {
        Report report = failedStartUp(output, "breakers.store.type=redis", "breakers.store.failure-mode=maybe");
        assertThat(report.description()).contains("breakers.store.failure-mode", "'maybe'");
        assertThat(report.action())
                .contains("breakers.store.failure-mode", "protect-locally, reject")
                .doesNotContain("open", "closed", "PROTECT_LOCALLY");
    }

    @Test
    void anUnknownFailureModeStopsStartUpEvenWithEveryBreakerInMemory(CapturedOutput output) {
        Report report = failedStartUp(output, "breakers.store.failure-mode=maybe");
        assertThat(report.description()).contains("breakers.store.failure-mode", "'maybe'");
        assertThat(report.action()).contains("protect-locally, reject");
    }

    @Test
    void aZeroTimeoutStopsStartUpEvenWithEveryBreakerInMemory(CapturedOutput output) {
        Report report = failedStartUp(output, "breakers.store.timeout=0");
        assertThat(report.description()).contains("'breakers.store.timeout'", "'0ms'");
        assertThat(report.action()).contains("at least 1ms");
    }

    @Test
    void aSubMillisecondStoreDurationStopsStartUp(CapturedOutput output) {
        for (String property : List.of("timeout", "state-cache-ttl", "key-expiry")) {
            Report report = failedStartUp(output, "breakers.store.type=redis", "breakers.store." + property + "=500us");
            assertThat(report.description()).contains("'breakers.store." + property + "'", "'500us'");
            assertThat(report.action()).contains("at least 1ms");
        }
    }

    @Test
    void aConfiguredBreakerWhoseWaitOutlivesTheKeyExpiryStopsStartUpBeforeAnyCall(CapturedOutput output) {
        Report report = failedStartUp(
                output,
                "breakers.store.type=redis",
                "breakers.store.key-expiry=2m",
                "breakers.instances.payments.wait-duration-in-open-state=90s",
                "breakers.instances.payments.probe-lease=30s");
        assertThat(report.description()).contains("'breakers.store.key-expiry'", "'2m'");
        assertThat(report.action())
                .contains("longer than 2m", "'payments'", "wait-duration-in-open-state (90s)", "probe-lease (30s)");
    }

    @Test
    void theDefaultsAreCheckedAtStartUpForBreakersNamedOnlyInCode(CapturedOutput output) {
        Report report = failedStartUp(
                output,
                "breakers.store.type=redis",
                "breakers.store.key-expiry=1m",
                "breakers.defaults.probe-lease=45s");
        assertThat(report.description()).contains("'breakers.store.key-expiry'", "'1m'");
        assertThat(report.action()).contains("longer than 75s", "breakers.defaults");
    }

    @Test
    void aBreakerCreatedLaterInCodeIsHeldToTheKeyExpiryWhenItIsCreated() {
        try (ConfigurableApplicationContext context =
                start("breakers.store.type=redis", "breakers.store.key-expiry=2m")) {
            BreakerRegistry registry = context.getBean(BreakerRegistry.class);
            BreakerConfig longWait = BreakerConfig.builder()
                    .waitDurationInOpenState(Duration.ofMinutes(2))
                    .build();
            assertThatThrownBy(() -> registry.breaker("late", longWait))
                    .isInstanceOf(InvalidStorePropertyException.class)
                    .hasMessageContaining("breakers.store.key-expiry")
                    .hasMessageContaining("'late'");
            assertThat(registry.find("late")).isEmpty();
        }
    }

    @Test
    void aBreakerKeptInMemoryIsNotHeldToTheKeyExpiry() {
        try (ConfigurableApplicationContext context = start(
                "breakers.store.type=redis",
                "breakers.store.key-expiry=2m",
                "breakers.instances.search.store.type=memory",
                "breakers.instances.search.wait-duration-in-open-state=5m",
                "breakers.instances.payments.wait-duration-in-open-state=20s")) {
            BreakerRegistry registry = context.getBean(BreakerRegistry.class);
            assertThat(registry.breaker("search").isShared()).isFalse();
            assertThat(registry.breaker("payments").isShared()).isTrue();
        }
    }

    @Test
    void theDeprecatedFailureModesStillWorkAndWarnOnceWithTheNewValue(CapturedOutput output) {
        assertDeprecated(
                output, "open", "protect-locally", StoreFailureMode.PROTECT_LOCALLY, "breakers.store.type=redis");
        assertDeprecated(output, "closed", "reject", StoreFailureMode.REJECT, "breakers.store.type=memory");
    }

    @Test
    void theNewFailureModesStartWithoutAWarning(CapturedOutput output) {
        for (String mode : List.of("protect-locally", "reject", "PROTECT_LOCALLY")) {
            try (ConfigurableApplicationContext context =
                    start("breakers.store.type=redis", "breakers.store.failure-mode=" + mode)) {
                assertThat(context.getBean(RedisStateStore.class).getSettings().failureMode())
                        .isIn(StoreFailureMode.PROTECT_LOCALLY, StoreFailureMode.REJECT);
            }
        }
        assertThat(output.getAll()).doesNotContainPattern(DEPRECATION);
    }

    private static void assertDeprecated(
            CapturedOutput output, String old, String replacement, StoreFailureMode expected, String type) {
        int before = count(DEPRECATION, output.getAll());
        try (ConfigurableApplicationContext context = start(
                type, "breakers.store.failure-mode=" + old, "breakers.instances.payments.failure-rate-threshold=50")) {
            assertThat(context.getBean(RedisStoreSettings.class).failureMode()).isEqualTo(expected);
            context.getBean(BreakerRegistry.class).breaker("payments");
        }
        List<String> warnings = lines(output.getAll(), DEPRECATION);
        assertThat(warnings).hasSize(before + 1);
        assertThat(warnings.get(warnings.size() - 1))
                .contains("WARN", "breakers.store.failure-mode=" + old, "breakers.store.failure-mode=" + replacement);
    }

    private static ConfigurableApplicationContext start(String... properties) {
        return new SpringApplicationBuilder(Application.class)
                .web(WebApplicationType.NONE)
                .properties(
                        "spring.main.banner-mode=off",
                        "spring.data.redis.host=127.0.0.1",
                        "spring.data.redis.port=" + redis.port())
                .properties(properties)
                .run();
    }

    private static Report failedStartUp(CapturedOutput output, String... properties) {
        int from = output.getAll().length();
        assertThatThrownBy(() -> start(properties).close()).isNotNull();
        String printed = output.getAll().substring(from);
        Matcher report = Pattern.compile(
                        "APPLICATION FAILED TO START\\s+\\*+\\s+Description:\\s+(.*?)\\s+Action:\\s+(.*?)\\R\\R",
                        Pattern.DOTALL)
                .matcher(printed);
        assertThat(report.find()).as("a failure report in:%n%s", printed).isTrue();
        return new Report(report.group(1), report.group(2));
    }

    private static int count(Pattern pattern, String text) {
        return lines(text, pattern).size();
    }

    private static List<String> lines(String text, Pattern pattern) {
        List<String> found = new ArrayList<>();
        for (String line : text.split("\\R")) {
            if (pattern.matcher(line).find()) {
                found.add(line);
            }
        }
        return found;
    }

    /** The failure report's two parts. */
    private record Report(String description, String action) {}

    @Configuration(proxyBeanMethods = false)
    @WithRedisAutoConfiguration
    @ImportAutoConfiguration({RedisStoreAutoConfiguration.class, BreakerAutoConfiguration.class})
    static class Application {}
}
