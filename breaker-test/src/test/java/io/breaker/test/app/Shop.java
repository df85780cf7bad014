package io.breaker.test.app;

import io.breaker.CircuitOpenException;
import io.breaker.spring.CircuitProtected;
import io.breaker.test.BreakerClock;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Import;
import org.springframework.stereotype.Service;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/** A shop whose supplier fails on demand, protected by the breaker "supplier" (application.yml). */
@SpringBootConfiguration
@EnableAutoConfiguration
@Import({Shop.Supplier.class, Shop.Stock.class, Shop.StockController.class})
public class Shop {

    /**
     * The remote supplier; {@link #failing} makes every call fail, and {@link #takes} makes every call
     * last that long on the breakers' clock.
     */
    @Service
    public static class Supplier {

        public final AtomicBoolean failing = new AtomicBoolean();
        public final AtomicInteger calls = new AtomicInteger();
        public final AtomicReference<Duration> takes = new AtomicReference<>(Duration.ZERO);
        private final BreakerClock clock;

        public Supplier(BreakerClock clock) {
            this.clock = clock;
        }

        public int quantity(String item) {
            calls.incrementAndGet();
            clock.advance(takes.get());
            if (failing.get()) {
                throw new IllegalStateException("supplier down");
            }
            return item.length();
        }
    }

    /** Asks the supplier through the breaker; answers "unknown" (-1) when it cannot. */
    @Service
    public static class Stock {

        private final Supplier supplier;

        public Stock(Supplier supplier) {
            this.supplier = supplier;
        }

        @CircuitProtected(name = "supplier", fallbackMethod = "unknown")
        public int quantity(String item) {
            return supplier.quantity(item);
        }

        int unknown(String item, CircuitOpenException rejected) {
            return -1;
        }

        int unknown(String item, Throwable failure) {
            return -2;
        }
    }

    @RestController
    public static class StockController {

        private final Stock stock;

        public StockController(Stock stock) {
            this.stock = stock;
        }

        @GetMapping("/stock/{item}")
        public int quantity(@PathVariable String item) {
            return stock.quantity(item);
        }
    }
}
