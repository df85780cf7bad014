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
     * with an {@code IllegalAccessException} (it makes the method accessible for each call and inaccessible
     * after it, and the threads interleave); a public fallback avoids that.
     */
    public int deliveryFallback(String isbn, Throwable failure) {
        return Wholesale.FALLBACK_DAYS;
    }
}
