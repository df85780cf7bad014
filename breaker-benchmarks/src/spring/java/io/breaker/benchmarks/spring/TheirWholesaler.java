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

    private int deliveryFallback(String isbn, Throwable failure) {
        return Wholesale.FALLBACK_DAYS;
    }
}
