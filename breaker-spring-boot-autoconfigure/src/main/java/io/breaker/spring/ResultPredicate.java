package io.breaker.spring;

/**
 * Decides which results of a {@code @CircuitProtected} method count as failures, for the breakers
 * whose {@code record-result.predicate} names this bean:
 *
 * <pre>{@code
 * @Bean
 * ResultPredicate outOfStockAnswers() {
 *     return result -> result instanceof Quote quote && quote.isFromBackupPriceList();
 * }
 * }</pre>
 *
 * A result it accepts is recorded as a failure (it can trip the breaker, or fail a probe) and still
 * returns to the caller as it is; no fallback runs for it. A {@code null} result is never passed
 * here: it is a success. What the method throws is classified by {@code record-exceptions} and
 * {@code ignore-exceptions} as before, never by this predicate. If the predicate throws, the call
 * ends with that exception, as if the method had thrown it; only a {@code CompletionStage} method
 * without a fallback, whose caller already holds the method's own future, records the exception and
 * leaves the future as it is.
 */
@FunctionalInterface
public interface ResultPredicate {

    /** Whether {@code result}, returned (or emitted) by a protected method, says the dependency is unhealthy. */
    boolean isFailure(Object result);

    /**
     * The type of result this predicate takes. At start-up every method protected by a breaker that
     * uses this predicate must return this type or a subtype (for {@code Mono}, {@code Flux} and
     * {@code CompletionStage}: its element type); otherwise start-up fails naming the method.
     */
    default Class<?> resultType() {
        return Object.class;
    }
}
