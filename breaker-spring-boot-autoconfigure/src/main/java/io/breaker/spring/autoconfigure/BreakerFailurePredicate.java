package io.breaker.spring.autoconfigure;

/**
 * Decides, for every breaker, which exceptions count as failures. Declare one as a bean to replace
 * "every exception counts" with your own rule:
 *
 * <pre>{@code
 * @Bean
 * BreakerFailurePredicate serverErrorsOnly() {
 *     return error -> error instanceof HttpServerErrorException || error instanceof IOException;
 * }
 * }</pre>
 *
 * Once a predicate is present, an exception counts when the predicate accepts it or it matches
 * {@code record-exceptions}; {@code ignore-exceptions} still win over both. An exception that does not
 * count is rethrown unchanged and no fallback runs for it. For one breaker only, use a
 * {@link BreakerConfigCustomizer} and {@code BreakerConfig.Builder#recordFailurePredicate}.
 */
@FunctionalInterface
public interface BreakerFailurePredicate {

    /** Whether {@code error} says the protected dependency is unhealthy. */
    boolean isFailure(Throwable error);
}
