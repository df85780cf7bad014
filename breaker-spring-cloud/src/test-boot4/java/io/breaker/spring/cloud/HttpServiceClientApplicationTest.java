package io.breaker.spring.cloud;

import com.sun.net.httpserver.HttpServer;
import io.breaker.CircuitOpenException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.cloud.client.circuitbreaker.CircuitBreakerFactory;
import org.springframework.cloud.client.circuitbreaker.httpservice.CircuitBreakerRestClientHttpServiceGroupConfigurer;
import org.springframework.cloud.client.circuitbreaker.httpservice.HttpServiceFallback;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.client.HttpServerErrorException;
import org.springframework.web.service.annotation.GetExchange;
import org.springframework.web.service.registry.ImportHttpServices;

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
 * An HTTP service client of Spring Framework 7 ({@code @HttpExchange} interface, {@code @ImportHttpServices}
 * group {@code wholesaler}) with a fallback declared by Spring Cloud's {@code @HttpServiceFallback}, as users
 * write it on Boot 4, calling a real HTTP backend on a free port. Spring Cloud Commons asks the
 * application's {@link CircuitBreakerFactory} for the breaker named after the group: the backend fails,
 * the breaker configured under {@code breakers.instances.wholesaler} opens, the fallback answers without
 * calling the backend, {@code /actuator/breakers} shows it, and one probe closes it.
 *
 * <p>Compiled and run only on the Boot 4 lines (the API exists from Spring Framework 7 and Spring Cloud
 * 2025.1 on): breaker-spring-boot4-starter compiles this source folder as its test sources, and it and
 * verification/breaker-boot41-tests (from the starter's test-jar) run the tag {@value #TAG} with the
 * Spring Cloud suites.
 */
@Tag(HttpServiceClientApplicationTest.TAG)
@SpringBootTest(
        classes = HttpServiceClientApplicationTest.Application.class,
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "breakers.instances.wholesaler.sliding-window-size=4",
            "breakers.instances.wholesaler.minimum-number-of-calls=4",
            "breakers.instances.wholesaler.wait-duration-in-open-state=30s",
            "management.endpoints.web.exposure.include=breakers"
        })
public class HttpServiceClientApplicationTest {

    /** The tests that exist only on the Boot 4 lines, with Spring Cloud on the class path. */
    static final String TAG = "boot4-spring-cloud";

    private static final AtomicBoolean FAILING = new AtomicBoolean(true);
    private static final AtomicInteger REQUESTS = new AtomicInteger();
    private static final HttpServer BACKEND = backend();

    @Autowired
    WholesalerService wholesaler;

    @Autowired
    TestClock clock;

    @Autowired
    ApplicationContext context;

    @Value("${local.server.port}")
    int port;

    @DynamicPropertySource
    static void backendUrl(DynamicPropertyRegistry registry) {
        registry.add(
                "spring.http.serviceclient.wholesaler.base-url",
                () -> "http://127.0.0.1:" + BACKEND.getAddress().getPort());
    }

    @AfterAll
    static void stopBackend() {
        BACKEND.stop(0);
    }

    @Test
    void theBreakerOpensTheFallbackAnswersTheEndpointShowsItAndOneProbeClosesIt() throws Exception {
        assertThat(context.getBean(CircuitBreakerFactory.class)).isInstanceOf(BreakerCircuitBreakerFactory.class);
        assertThat(context.getBeansOfType(CircuitBreakerRestClientHttpServiceGroupConfigurer.class))
                .hasSize(1);
        assertThat(breaker()).contains("\"state\":\"CLOSED\"");

        for (int i = 0; i < 4; i++) {
            assertThat(wholesaler.deliveryDays("9780134685991"))
                    .isEqualTo("fallback after " + HttpServerErrorException.ServiceUnavailable.class.getSimpleName());
        }
        assertThat(REQUESTS.get()).isEqualTo(4);
        assertThat(breaker()).contains("\"state\":\"OPEN\"").contains("\"failedCalls\":4");

        assertThat(wholesaler.deliveryDays("9780134685991"))
                .isEqualTo("fallback after " + CircuitOpenException.class.getSimpleName());
        assertThat(REQUESTS.get()).as("not called while open").isEqualTo(4);
        assertThat(breaker()).contains("\"rejectedCalls\":1");

        FAILING.set(false);
        clock.advance(Duration.ofSeconds(30));
        assertThat(wholesaler.deliveryDays("9780134685991")).isEqualTo("2 days");
        assertThat(REQUESTS.get()).as("exactly one probe").isEqualTo(5);
        assertThat(breaker()).contains("\"state\":\"CLOSED\"").contains("\"from\":\"HALF_OPEN\",\"to\":\"CLOSED\"");
    }

    private String breaker() throws IOException, InterruptedException {
        HttpResponse<String> response = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/actuator/breakers/wholesaler"))
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
                exchange.getResponseHeaders().set("Content-Type", "text/plain");
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

    public interface WholesalerService {

        @GetExchange("/days/{isbn}")
        String deliveryDays(@PathVariable("isbn") String isbn);
    }

    /**
     * The fallback Spring Cloud instantiates and calls: a public class with a public method of the
     * service method's name, here with the cause first.
     */
    public static class WholesalerFallbacks {

        public String deliveryDays(Throwable cause, String isbn) {
            return "fallback after " + cause.getClass().getSimpleName();
        }
    }

    @Configuration(proxyBeanMethods = false)
    @EnableAutoConfiguration
    @ImportHttpServices(group = "wholesaler", types = WholesalerService.class)
    @HttpServiceFallback(value = WholesalerFallbacks.class, group = "wholesaler")
    static class Application {

        /** The breakers' clock (a {@link io.breaker.NanoClock} bean replaces the system's): the test moves it. */
        @Bean
        TestClock testClock() {
            return new TestClock();
        }
    }
}
