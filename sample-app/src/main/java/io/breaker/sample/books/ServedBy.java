package io.breaker.sample.books;

/** How a delivery time was served: the value of the {@code X-Served-By} response header. */
public enum ServedBy {

    /** The wholesaler answered (with days, or with 404 for an unknown book). */
    LIVE("live"),

    /** The breaker is open: the wholesaler was not asked, the fallback answered. */
    FALLBACK_OPEN("fallback-open"),

    /** The wholesaler was asked and failed (timeout, connection error, 5xx, 429): the fallback answered. */
    FALLBACK_FAILED("fallback-failed");

    /** The response header carrying this value. */
    public static final String HEADER = "X-Served-By";

    private final String headerValue;

    ServedBy(String headerValue) {
        this.headerValue = headerValue;
    }

    public String headerValue() {
        return headerValue;
    }
}
