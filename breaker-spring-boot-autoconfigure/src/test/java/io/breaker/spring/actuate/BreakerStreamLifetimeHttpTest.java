package io.breaker.spring.actuate;

import io.breaker.BreakerRegistry;
import io.breaker.spring.test.BootLine;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;

import java.time.Duration;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A stream ends after its lifetime (here 3 s instead of {@link BreakerEventStream#LIFETIME}), whether its
 * client reads or not: a client that reads nothing loses its slot, and what it finds when it reads at
 * last tells it when to reconnect.
 */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        classes = BreakerStreamLifetimeHttpTest.App.class,
        properties = "management.endpoints.web.exposure.include=breakers")
@Tag(BootLine.TAG)
class BreakerStreamLifetimeHttpTest {

    static final Duration LIFETIME = Duration.ofSeconds(3);

    @LocalServerPort
    private int port;

    @Autowired
    private BreakerEventStream stream;

    @Test
    void aClientThatReadsNothingLosesItsSlotAtTheEndOfTheLifetimeAndIsToldToReconnect() throws Exception {
        try (StreamSocket silent = StreamSocket.open(port, "/actuator/breakers/stream", "127.0.0.1", null)) {
            assertThat(silent.status).isEqualTo(200);
            long start = System.nanoTime();

            await(() -> stream.subscribers() == 0);

            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(LIFETIME.plusSeconds(10));
            assertThat(silent.rest())
                    .startsWith("retry: 3000\n\nevent: snapshot\ndata: {\"breakers\":[")
                    .endsWith("event: end\ndata: {\"reason\":\"a stream lasts 3 s: connect again for the next one\"}"
                            + "\n\n");
        }
    }

    private static void await(BooleanSupplier condition) throws InterruptedException {
        long end = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("waited 30 s").isLessThan(end);
            Thread.sleep(10);
        }
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class App {

        @Bean
        BreakerEventStream breakerEventStream(BreakerRegistry registry) {
            return BreakerEventStream.bind(registry, LIFETIME, System::nanoTime);
        }
    }
}
