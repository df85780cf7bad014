package io.breaker.boot4;

import io.breaker.BreakerRegistry;
import io.breaker.CircuitOpenException;
import io.breaker.State;
import io.breaker.redis.RedisServer;
import io.breaker.redis.RedisStateStore;
import io.breaker.spring.CircuitProtected;
import io.breaker.spring.test.BootLine;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * breaker-redis on Spring Boot 4: the store orders itself after Boot 4's Redis auto-configuration,
 * the registry shares its breakers through a real redis-server, and the {@code breakerStore} health
 * contributor (this starter's Boot 4 adapter) answers over HTTP next to {@code breakers}.
 */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        classes = RedisStoreOnBoot4Test.App.class,
        properties = {
            "breakers.store.type=redis",
            "breakers.instances.wholesaler.minimum-number-of-calls=2",
            "breakers.instances.wholesaler.sliding-window-size=2",
            "management.endpoint.health.show-details=always"
        })
@DirtiesContext // closed with its redis-server, not kept in the context cache
@Tag(BootLine.TAG)
class RedisStoreOnBoot4Test {

    @RegisterExtension
    static final RedisServer redis = new RedisServer();

    @DynamicPropertySource
    static void redis(DynamicPropertyRegistry properties) {
        properties.add("spring.data.redis.host", () -> "127.0.0.1");
        properties.add("spring.data.redis.port", redis::port);
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class App {

        @Bean
        Wholesaler wholesaler() {
            return new Wholesaler();
        }
    }

    static class Wholesaler {
        @CircuitProtected(name = "wholesaler")
        public int days(String isbn) {
            throw new IllegalStateException("wholesaler down");
        }
    }

    @Value("${local.server.port}")
    private int port;

    @Autowired
    private BreakerRegistry registry;

    @Autowired
    private RedisStateStore store;

    @Autowired
    private Wholesaler wholesaler;

    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @Test
    void aTripIsSharedThroughRedisAndBothHealthContributorsAnswer() throws Exception {
        for (int i = 0; i < 2; i++) {
            assertThatThrownBy(() -> wholesaler.days("isbn")).isInstanceOf(IllegalStateException.class);
        }
        assertThat(registry.breaker("wholesaler").getState()).isEqualTo(State.OPEN);
        assertThatThrownBy(() -> wholesaler.days("isbn")).isInstanceOf(CircuitOpenException.class);
        assertThat(redis.command("KEYS", "*")).contains("wholesaler");
        assertThat(store.isAvailable()).isTrue();

        HttpResponse<String> health = http.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/actuator/health"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());

        assertThat(health.statusCode()).isEqualTo(200);
        assertThat(health.body())
                .contains(
                        "\"breakerStore\":{",
                        "\"available\":true",
                        "\"actingAlone\":false",
                        "\"failureMode\":\"protect-locally\"",
                        "\"breakers\":{",
                        "\"wholesaler\":{\"state\":\"OPEN\"")
                .doesNotContain("\"DOWN\"");
    }
}
