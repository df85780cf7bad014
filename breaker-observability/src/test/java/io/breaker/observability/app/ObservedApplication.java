package io.breaker.observability.app;

import io.breaker.BreakerRegistry;
import io.breaker.CircuitOpenException;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import java.io.IOException;

/**
 * A small application with one breaker, {@code inventory}, whose dependency fails on demand:
 * {@code GET /inventory?fail=true} is a failed call, {@code GET /inventory} a successful one, and a
 * rejected call answers 503.
 */
@SpringBootApplication
public class ObservedApplication {

    @RestController
    static class InventoryController {

        private final BreakerRegistry breakers;

        InventoryController(BreakerRegistry breakers) {
            this.breakers = breakers;
        }

        @GetMapping("/inventory")
        ResponseEntity<String> inventory(@RequestParam(defaultValue = "false") boolean fail) throws Exception {
            try {
                return ResponseEntity.ok(breakers.breaker("inventory").call(() -> {
                    if (fail) {
                        throw new IOException("the inventory service is down");
                    }
                    return "in stock";
                }));
            } catch (CircuitOpenException rejected) {
                return ResponseEntity.status(503).body("rejected");
            } catch (IOException failed) {
                return ResponseEntity.status(502).body("failed");
            }
        }
    }
}
