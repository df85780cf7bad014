package io.breaker.benchmarks.spring;

import io.github.resilience4j.circuitbreaker.annotation.CircuitBreaker;

/** The protected bean on resilience4j's side; the same body and fallback as {@link OurWholesaler}. */
public class TheirWholesaler {

    @CircuitBreaker(name = Wholesale.CLOSED, fallbackMethod = "deliveryFallback")
    public int deliveryDaysClosed(String isbn) {
        return Wholesale.deliveryDays(isbn);
    }

    @CircuitBreaker(name = Wholesale.OPEN, fallbackMethod = "deliveryFallback")
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
