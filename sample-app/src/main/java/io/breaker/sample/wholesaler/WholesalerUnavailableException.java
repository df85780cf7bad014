package io.breaker.sample.wholesaler;

import org.jspecify.annotations.Nullable;

/**
 * The wholesaler could not answer: a connect or read timeout, a refused or reset connection, a 5xx
 * or a 429. These say the wholesaler is unhealthy, so they are the failures the breaker records
 * ({@code breakers.instances.wholesaler.record-exceptions}).
 */
public class WholesalerUnavailableException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public WholesalerUnavailableException(String message, @Nullable Throwable cause) {
        super(message, cause);
    }
}
