package consumer.feign;

import com.sun.net.httpserver.HttpServer;
import io.breaker.BreakerRegistry;
import io.breaker.State;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.cloud.client.circuitbreaker.CircuitBreakerFactory;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE)
class FeignConsumerApplicationTest {

    private static final AtomicInteger REQUESTS = new AtomicInteger();
    private static final HttpServer BACKEND = failingBackend();

    @Autowired
    private FeignConsumerApplication.SupplierClient supplier;

    @Autowired
    private BreakerRegistry registry;

    @Autowired
    private CircuitBreakerFactory<?, ?> factory;

    @DynamicPropertySource
    static void supplierUrl(DynamicPropertyRegistry properties) {
        properties.add("supplier.url", () -> "http://127.0.0.1:" + BACKEND.getAddress().getPort());
    }

    @AfterAll
    static void stopBackend() {
        BACKEND.stop(0);
    }

    @Test
    void theFeignCallToAFailingBackendOpensTheBreakerAndTheFallbackAnswers() {
        assertThat(SpringBootVersion.getVersion()).isEqualTo(System.getProperty("expected.spring-boot.version"));
        assertThat(factory.getClass().getName()).isEqualTo("io.breaker.spring.cloud.BreakerCircuitBreakerFactory");

        for (int i = 0; i < 4; i++) {
            assertThat(supplier.price("book")).isEqualTo("unknown");
        }
        assertThat(REQUESTS.get()).isEqualTo(4);
        assertThat(registry.breaker("supplier").getState()).isEqualTo(State.OPEN);

        assertThat(supplier.price("book")).isEqualTo("unknown");
        assertThat(REQUESTS.get()).as("the open breaker keeps the call off the backend").isEqualTo(4);
        assertThat(registry.breaker("supplier").getMetrics().notPermittedCalls()).isEqualTo(1);
    }

    private static HttpServer failingBackend() {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            server.createContext("/prices/", exchange -> {
                REQUESTS.incrementAndGet();
                exchange.sendResponseHeaders(503, -1);
                exchange.close();
            });
            server.start();
            return server;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
