package io.breaker.benchmarks.spring;

import io.breaker.spring.CircuitProtected;

/** The protected bean on our side; the same body and fallback as {@link TheirWholesaler}. */
public class OurWholesaler {

    @CircuitProtected(name = Wholesale.CLOSED, fallbackMethod = "deliveryFallback")
    public int deliveryDaysClosed(String isbn) {
        return Wholesale.deliveryDays(isbn);
    }

    @CircuitProtected(name = Wholesale.OPEN, fallbackMethod = "deliveryFallback")
    public int deliveryDaysOpen(String isbn) {
        return Wholesale.deliveryDays(isbn);
    }

    /**
     * Public on both sides: resilience4j 2.4.0 fails a private fallback called by several threads at once
     * (an {@code IllegalAccessException}; its issue #878), and its advice is to make fallbacks public.
     */
    public int deliveryFallback(String isbn, Throwable failure) {
        return Wholesale.FALLBACK_DAYS;
    }
}
