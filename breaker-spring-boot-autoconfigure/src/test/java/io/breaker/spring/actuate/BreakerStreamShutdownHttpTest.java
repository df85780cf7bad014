package io.breaker.spring.actuate;

import io.breaker.spring.test.BootLine;
import io.breaker.spring.test.OnReactorNetty;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An open stream does not hold up a graceful shutdown: closing the application ends every stream first,
 * so the web server finds no request still running, and the stream's client sees the end.
 */
@Tag(BootLine.TAG)
class BreakerStreamShutdownHttpTest {

    /** Longer than the test accepts: a shutdown that waited for the stream would take all of it. */
    private static final Duration SHUTDOWN_TIMEOUT = Duration.ofSeconds(20);

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"servlet", "reactive on the server Spring Boot picks", "reactive on Reactor Netty"})
    void closingTheApplicationEndsOpenStreamsAndDoesNotWaitForThem(String server) throws Exception {
        SpringApplicationBuilder application = new SpringApplicationBuilder(BreakerStreamHttpTest.App.class);
        if (server.endsWith("Reactor Netty")) {
            application.sources(NettyServer.class);
        }
        ConfigurableApplicationContext context = application
                .properties(
                        "spring.main.web-application-type=" + server.split(" ")[0],
                        "server.port=0",
                        "server.shutdown=graceful",
                        "spring.lifecycle.timeout-per-shutdown-phase=" + SHUTDOWN_TIMEOUT.toSeconds() + "s",
                        "management.endpoints.web.exposure.include=breakers",
                        "spring.jmx.enabled=false")
                .run();
        int port = context.getEnvironment().getRequiredProperty("local.server.port", Integer.class);
        try (StreamSocket stream = StreamSocket.open(port, "/actuator/breakers/stream", "127.0.0.1", null)) {
            assertThat(stream.status).isEqualTo(200);
            CompletableFuture<String> rest = CompletableFuture.supplyAsync(() -> {
                try {
                    return stream.rest();
                } catch (java.io.IOException e) {
                    return "failed: " + e;
                }
            });

            long start = System.nanoTime();
            context.close();
            Duration took = Duration.ofNanos(System.nanoTime() - start);

            assertThat(took).isLessThan(Duration.ofSeconds(10));
            assertThat(rest.get(10, TimeUnit.SECONDS))
                    .contains("event: snapshot")
                    .contains("event: end")
                    .contains("shutting down");
        } finally {
            context.close();
        }
    }

    @Configuration(proxyBeanMethods = false)
    @Import(OnReactorNetty.class)
    static class NettyServer {}
}
