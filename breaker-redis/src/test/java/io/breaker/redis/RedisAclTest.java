package io.breaker.redis;

import io.breaker.BreakerConfig;
import io.breaker.CircuitBreaker;
import io.breaker.SlidingWindowType;
import io.breaker.State;
import io.breaker.spring.actuate.SharedSettings;
import io.breaker.spring.test.BootLine;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The Redis ACL users docs/redis.md gives, created word for word from the page: the application's user
 * runs the breaker (failure reports, a trip, an operator's force, a settings change) and can touch
 * nothing else; the viewer's user reads the breaker's keys and cannot write them.
 */
@Tag(BootLine.TAG)
class RedisAclTest {

    @RegisterExtension
    static final RedisServer redis = new RedisServer();

    private static final Pattern USER = Pattern.compile("^\\s*(ACL SETUSER (breaker-\\w+) on >(\\S+) .*)$");

    @Test
    void theDocumentedUsersRunTheBreakerAndNothingElse() throws Exception {
        Map<String, String> passwords = new java.util.HashMap<>();
        for (String line : Files.readAllLines(docs())) {
            Matcher user = USER.matcher(line);
            if (user.find()) {
                String reply = redis.command(user.group(1).trim().split("\\s+"));
                assertThat(reply).as(user.group(1)).startsWith("+OK");
                passwords.put(user.group(2), user.group(3));
            }
        }
        assertThat(passwords).containsKeys("breaker-app", "breaker-viewer");

        BreakerConfig config = BreakerConfig.builder()
                .slidingWindow(SlidingWindowType.COUNT_BASED, 4)
                .minimumNumberOfCalls(2)
                .failureRateThreshold(50)
                .build();
        RedisStoreSettings settings = RedisStoreSettings.defaults()
                .withStateCacheTtl(Duration.ofMillis(2000))
                .withTimeout(Duration.ofMillis(1000));
        try (Fleet fleet = new Fleet(() -> factory("breaker-app", passwords.get("breaker-app")), 1, config, settings)) {
            CircuitBreaker breaker = fleet.breakers("acl-wholesaler").get(0);
            for (int i = 0; i < 2; i++) {
                long permit = breaker.tryAcquirePermit();
                breaker.onError(permit, 0L, new IOException("down"));
            }
            assertThat(breaker.getState()).isEqualTo(State.OPEN);
            assertThat(fleet.stores.get(0).getFailureCount())
                    .as("operations Redis refused")
                    .isZero();
            breaker.forceClosed();
            assertThat(fleet.stores.get(0).lastOperatorChangeChangedFleet("acl-wholesaler"))
                    .isTrue();

            SharedSettings.Outcome changed = new RedisSharedSettings(fleet.stores.get(0))
                    .change(
                            "acl-wholesaler",
                            SharedSettings.Fleet.NONE,
                            Map.of("failure-rate-threshold", "30"),
                            "alice");
            assertThat(changed).isInstanceOf(SharedSettings.Outcome.Applied.class);
            assertThat(((SharedSettings.Outcome.Applied) changed).fleet().overrides())
                    .containsEntry("failure-rate-threshold", "30");

            StringRedisTemplate app = template(fleet.factories.get(0));
            assertThatThrownBy(() -> app.opsForValue().set("not-a-breaker", "x"))
                    .hasStackTraceContaining("NOPERM");
        }

        LettuceConnectionFactory viewerFactory = factory("breaker-viewer", passwords.get("breaker-viewer"));
        viewerFactory.afterPropertiesSet();
        viewerFactory.start();
        try {
            StringRedisTemplate viewer = template(viewerFactory);
            assertThat(viewer.opsForHash().entries("{breaker:acl-wholesaler}:settings"))
                    .containsEntry("p:failure-rate-threshold", "30");
            assertThatThrownBy(() -> viewer.opsForHash().put("{breaker:acl-wholesaler}:settings", "p:x", "1"))
                    .hasStackTraceContaining("NOPERM");
        } finally {
            viewerFactory.destroy();
        }
    }

    private static LettuceConnectionFactory factory(String user, String password) {
        RedisStandaloneConfiguration standalone = new RedisStandaloneConfiguration("127.0.0.1", redis.port());
        standalone.setUsername(user);
        standalone.setPassword(password);
        return new LettuceConnectionFactory(standalone, Fleet.CLIENT);
    }

    private static StringRedisTemplate template(LettuceConnectionFactory factory) {
        StringRedisTemplate template = new StringRedisTemplate(factory);
        template.afterPropertiesSet();
        return template;
    }

    /** docs/redis.md, found upwards from the module that runs this test (each Boot line's runs it). */
    private static Path docs() {
        List<Path> tried = new ArrayList<>();
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path page = dir.resolve("docs").resolve("redis.md");
            if (Files.exists(page)) {
                return page;
            }
            tried.add(page);
        }
        throw new IllegalStateException("docs/redis.md not found; tried " + tried);
    }
}
