package io.breaker.sample.wholesaler;

import org.springframework.boot.context.properties.ConfigurationProperties;

import java.time.Duration;

/**
 * Where the wholesaler is and how long the bookshop waits for it.
 *
 * @param url            base URL of the wholesaler's API
 * @param connectTimeout longest wait to open a connection; without it a dead host costs seconds per call
 * @param readTimeout    longest wait for the answer once connected; a breaker without a call timeout
 *                       can never trip in time
 */
@ConfigurationProperties("bookshop.wholesaler")
public record WholesalerProperties(String url, Duration connectTimeout, Duration readTimeout) {

    public WholesalerProperties {
        if (url == null || url.isBlank()) {
            throw new IllegalArgumentException(
                    "bookshop.wholesaler.url must be set, for example http://localhost:8081");
        }
        connectTimeout = connectTimeout == null ? Duration.ofMillis(800) : connectTimeout;
        readTimeout = readTimeout == null ? Duration.ofMillis(800) : readTimeout;
    }
}
