package io.breaker.spring.cloud;

import com.sun.net.httpserver.HttpServer;
import io.breaker.NanoClock;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.cloud.client.circuitbreaker.CircuitBreakerFactory;
import org.springframework.cloud.client.circuitbreaker.Customizer;
import org.springframework.cloud.openfeign.EnableFeignClients;
import org.springframework.cloud.openfeign.FeignClient;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An OpenFeign client with {@code spring.cloud.openfeign.circuitbreaker.enabled=true}, as users write
 * it, calling a real HTTP backend on a free port: the backend fails, the breaker configured under
 * {@code breakers.instances.wholesaler} (the client's name, as its group) opens, the Feign fallback
 * answers without calling the backend, {@code /actuator/breakers} shows it, and one probe closes it.
 */
@Tag("boot-line")
@SpringBootTest(
        classes = OpenFeignApplicationTest.Application.class,
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "spring.cloud.openfeign.circuitbreaker.enabled=true",
            "spring.cloud.openfeign.circuitbreaker.group.enabled=true",
            "breakers.instances.wholesaler.sliding-window-size=4",
            "breakers.instances.wholesaler.minimum-number-of-calls=4",
            "breakers.instances.wholesaler.wait-duration-in-open-state=30s",
            "management.endpoints.web.exposure.include=breakers"
        })
class OpenFeignApplicationTest {

    private static final AtomicBoolean FAILING = new AtomicBoolean(true);
    private static final AtomicInteger REQUESTS = new AtomicInteger();
    private static final HttpServer BACKEND = backend();

    @Autowired
    WholesalerClient wholesaler;

    @Autowired
    TestClock clock;

    @Autowired
    CircuitBreakerFactory<?, ?> factory;

    /** The server's port (LocalServerPort moved package in Boot 4; the property did not). */
    @Value("${local.server.port}")
    int port;

    @DynamicPropertySource
    static void backendUrl(DynamicPropertyRegistry registry) {
        registry.add(
                "wholesaler.url",
                () -> "http://127.0.0.1:" + BACKEND.getAddress().getPort());
    }

    @AfterAll
    static void stopBackend() {
        BACKEND.stop(0);
    }

    @Test
    void theBreakerOpensTheFallbackAnswersTheEndpointShowsItAndOneProbeClosesIt() throws Exception {
        assertThat(factory).isInstanceOf(BreakerCircuitBreakerFactory.class);
        assertThat(breaker()).contains("\"state\":\"CLOSED\"");

        for (int i = 0; i < 4; i++) {
            assertThat(wholesaler.deliveryDays("9780134685991")).isEqualTo("fallback");
        }
        assertThat(REQUESTS.get()).isEqualTo(4);
        assertThat(breaker()).contains("\"state\":\"OPEN\"").contains("\"failedCalls\":4");

        assertThat(wholesaler.deliveryDays("9780134685991")).isEqualTo("fallback");
        assertThat(REQUESTS.get()).as("not called while open").isEqualTo(4);
        assertThat(breaker()).contains("\"rejectedCalls\":1");

        FAILING.set(false);
        clock.advance(Duration.ofSeconds(30));
        assertThat(wholesaler.deliveryDays("9780134685991")).isEqualTo("2 days");
        assertThat(REQUESTS.get()).as("exactly one probe").isEqualTo(5);
        assertThat(breaker()).contains("\"state\":\"CLOSED\"").contains("\"from\":\"HALF_OPEN\",\"to\":\"CLOSED\"");
    }

    @Test
    void settingsMadeThroughACustomizerShowInTheEndpoint() throws Exception {
        assertThat(breaker("catalogue")).contains("\"minimumNumberOfCalls\":7").contains("\"state\":\"CLOSED\"");
    }

    private String breaker() throws IOException, InterruptedException {
        return breaker("wholesaler");
    }

    private String breaker(String name) throws IOException, InterruptedException {
        HttpResponse<String> response = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/actuator/breakers/" + name))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(200);
        return response.body();
    }

    private static HttpServer backend() {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            server.createContext("/days/", exchange -> {
                REQUESTS.incrementAndGet();
                byte[] body = (FAILING.get() ? "unavailable" : "2 days").getBytes(StandardCharsets.UTF_8);
                exchange.sendResponseHeaders(FAILING.get() ? 503 : 200, body.length);
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(body);
                }
            });
            server.start();
            return server;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @FeignClient(name = "wholesaler", url = "${wholesaler.url}", fallback = WholesalerFallback.class)
    interface WholesalerClient {

        @GetMapping("/days/{isbn}")
        String deliveryDays(@PathVariable("isbn") String isbn);
    }

    static class WholesalerFallback implements WholesalerClient {

        @Override
        public String deliveryDays(String isbn) {
            return "fallback";
        }
    }

    @Configuration(proxyBeanMethods = false)
    @EnableAutoConfiguration
    @EnableFeignClients(clients = WholesalerClient.class)
    static class Application {

        /** The breakers' clock (a {@link NanoClock} bean replaces the system's): the test moves it. */
        @Bean
        TestClock testClock() {
            return new TestClock();
        }

        @Bean
        Customizer<BreakerCircuitBreakerFactory> catalogue() {
            return factory ->
                    factory.configure(builder -> builder.settings(b -> b.minimumNumberOfCalls(7)), "catalogue");
        }

        @Bean
        WholesalerFallback wholesalerFallback() {
            return new WholesalerFallback();
        }
    }
}
