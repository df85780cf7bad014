package io.breaker.redis.app;

import io.breaker.CircuitOpenException;
import io.breaker.spring.CircuitProtected;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A small application as a fleet runs it: one endpoint whose calls go to a remote dependency
 * through a {@code @CircuitProtected} method. The dependency is shared by every instance started
 * in this JVM, as a real remote service is shared by a fleet.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
public class FleetApplication {

    /** The remote dependency every instance calls. */
    public static final class Dependency {

        public static final AtomicInteger CALLS = new AtomicInteger();
        public static final AtomicBoolean FAILING = new AtomicBoolean();

        private Dependency() {}
    }

    /**
     * The HTTP port a started instance listens on: Spring Boot publishes it as {@code local.server.port}
     * on either line (the web server's own types moved packages in Boot 4).
     */
    public static int port(ApplicationContext instance) {
        return instance.getEnvironment().getRequiredProperty("local.server.port", Integer.class);
    }

    @Bean
    Wholesaler wholesaler() {
        return new Wholesaler();
    }

    public static class Wholesaler {

        @CircuitProtected(name = "wholesaler")
        public String deliveryDays() {
            Dependency.CALLS.incrementAndGet();
            if (Dependency.FAILING.get()) {
                throw new IllegalStateException("wholesaler down");
            }
            return "3";
        }
    }

    /** Registered as a member class of this configuration. */
    @RestController
    public static class DaysController {

        private final Wholesaler wholesaler;

        DaysController(Wholesaler wholesaler) {
            this.wholesaler = wholesaler;
        }

        /** 200 with the days, 502 when the wholesaler failed, 503 when the breaker rejected the call. */
        @GetMapping("/days")
        public ResponseEntity<String> days() {
            try {
                return ResponseEntity.ok(wholesaler.deliveryDays());
            } catch (CircuitOpenException rejected) {
                return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE).body("rejected");
            } catch (IllegalStateException failed) {
                return ResponseEntity.status(HttpStatus.BAD_GATEWAY).body("failed");
            }
        }
    }
}
