package io.breaker.benchmarks.spring;

/** The bean the floors advise (and the bare call calls without a proxy): the same body as the others. */
public class MarkedWholesaler {

    @Marked
    public int deliveryDays(String isbn) {
        return Wholesale.deliveryDays(isbn);
    }
}
