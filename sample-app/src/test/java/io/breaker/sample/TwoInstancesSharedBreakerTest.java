package io.breaker.sample;

import com.fasterxml.jackson.databind.JsonNode;
import io.breaker.redis.RedisServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.http.HttpResponse;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The two bookshops of {@link TwoBookshopsSharingOneBreaker} with the {@code redis} profile, on one
 * redis-server; and a hung Redis leaves both instances UP.
 */
class TwoInstancesSharedBreakerTest extends TwoBookshopsSharingOneBreaker {

    @RegisterExtension
    static final RedisServer redis = new RedisServer();

    @Override
    String storeProfile() {
        return "redis";
    }

    @Override
    List<String> storeArguments() {
        return List.of("--spring.data.redis.host=127.0.0.1", "--spring.data.redis.port=" + redis.port());
    }

    @Test
    void aHungRedisLeavesEveryInstanceUpAndHealthShowsTheStoreNotSpringsRedisCheck() throws Exception {
        JsonNode health = json(a.health());
        assertThat(health.at("/components").has("breakerStore")).isTrue();
        assertThat(health.at("/components").has("redis"))
                .as("Spring Boot's Redis health: a Redis outage would make every instance DOWN")
                .isFalse();

        redis.pause();
        try {
            HttpResponse<String> paused = a.health();
            assertThat(paused.statusCode()).isEqualTo(200);
            assertThat(json(paused).get("status").asText()).isEqualTo("UP");
        } finally {
            redis.resume();
        }
    }
}
