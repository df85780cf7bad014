package io.breaker.redis.fleet;

import io.breaker.CircuitOpenException;
import io.breaker.spring.CircuitProtected;
import io.breaker.spring.actuate.SharedBreakers;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;

/**
 * One instance of the fleet, run in its own JVM by {@link FleetProcesses}: a consumer application as
 * a user would write it, one {@code @CircuitProtected} method calling a remote HTTP dependency.
 *
 * <p>{@code GET /call} answers 200 "live" (the dependency answered), 502 "failed" (the call was made
 * and failed) or 503 "rejected" (the breaker did not call). A request to the dependency carries
 * {@code ?alone=1} when the instance's store was declared down (the instance acts alone and may probe
 * on its own) before the breaker let the call through or when the call starts. The port is written to
 * {@code --fleet.port-file} once the server listens. The instance exits when its standard input
 * closes, so that a test JVM that dies cannot leave it running.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
public class FleetInstance {

    /** The breaker's name, also used by the harness to read its state from the actuator. */
    static final String BREAKER = "dependency";
    /** The breaker's actuator endpoint: its state, store and recent changes. */
    static final String BREAKER_PATH = "/actuator/breakers/" + BREAKER;
    /** The breaker's settings endpoint: GET shows them, POST changes them, DELETE returns to the configured. */
    static final String CONFIG_PATH = BREAKER_PATH + "/config";

    public static void main(String[] args) {
        exitWhenParentGoes();
        SpringApplication.run(FleetInstance.class, args);
    }

    private static void exitWhenParentGoes() {
        Thread watcher = new Thread(
                () -> {
                    try {
                        while (System.in.read() >= 0) {
                            // the parent never writes; EOF means it is gone
                        }
                    } catch (IOException closed) {
                        // same as EOF
                    }
                    System.exit(0);
                },
                "parent-watcher");
        watcher.setDaemon(true);
        watcher.start();
    }

    @Bean
    DependencyClient dependencyClient(
            @Value("${fleet.dependency-url}") String url, ObjectProvider<SharedBreakers> sharedBreakers) {
        return new DependencyClient(URI.create(url), sharedBreakers.getIfAvailable());
    }

    @Bean
    ApplicationListener<ApplicationReadyEvent> portFile(@Value("${fleet.port-file}") String path) {
        Path file = Path.of(path);
        // The port from the environment (local.server.port), once the application is ready: the same
        // on every Spring Boot line, where the web server's own event moved packages in Boot 4.
        return event -> {
            try {
                // Written aside and moved, so the parent never reads a half-written port.
                Path partial = file.resolveSibling(file.getFileName() + ".partial");
                Files.writeString(
                        partial,
                        event.getApplicationContext().getEnvironment().getRequiredProperty("local.server.port"));
                Files.move(partial, file, StandardCopyOption.ATOMIC_MOVE);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        };
    }

    /** A 5xx or no answer in time: the dependency is unhealthy, which is what the breaker counts. */
    static final class DependencyFailedException extends RuntimeException {

        DependencyFailedException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    public static class DependencyClient {

        private static final Duration TIMEOUT = Duration.ofSeconds(1);

        private final HttpClient http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(TIMEOUT)
                .build();
        private final URI uri;
        private final URI aloneUri;
        /** The store's view for the actuator; null in memory. */
        private final SharedBreakers shared;

        DependencyClient(URI uri, SharedBreakers shared) {
            this.uri = uri;
            this.aloneUri = URI.create(uri + "?alone=1");
            this.shared = shared;
        }

        /** Whether the store is declared down, so that the instance's breakers act alone. */
        boolean actingAlone() {
            return shared != null && shared.store().actingAlone();
        }

        /** Calls the dependency; {@code aloneBefore}: whether the instance acted alone before the breaker's decision. */
        @CircuitProtected(name = BREAKER)
        public String call(boolean aloneBefore) {
            HttpResponse<String> response;
            try {
                URI target = aloneBefore || actingAlone() ? aloneUri : uri;
                response = http.send(
                        HttpRequest.newBuilder(target).timeout(TIMEOUT).build(), HttpResponse.BodyHandlers.ofString());
            } catch (IOException e) {
                throw new DependencyFailedException("dependency unreachable", e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new DependencyFailedException("interrupted", e);
            }
            if (response.statusCode() >= 500) {
                throw new DependencyFailedException("dependency answered " + response.statusCode(), null);
            }
            return response.body();
        }
    }

    /** Registered as a member class of this configuration. */
    @RestController
    public static class CallController {

        private final DependencyClient client;

        CallController(DependencyClient client) {
            this.client = client;
        }

        @GetMapping("/call")
        public ResponseEntity<String> call() {
            try {
                client.call(client.actingAlone());
                return ResponseEntity.ok("live");
            } catch (CircuitOpenException rejected) {
                return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE).body("rejected");
            } catch (DependencyFailedException failed) {
                return ResponseEntity.status(HttpStatus.BAD_GATEWAY).body("failed");
            }
        }

        /** Readiness for the launcher, without making a call through the breaker. */
        @GetMapping("/ping")
        public String ping() {
            return "up";
        }
    }
}
