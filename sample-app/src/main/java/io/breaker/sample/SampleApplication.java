package io.breaker.sample;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/**
 * The bookshop demo: a breaker in front of a wholesaler that fails on demand.
 *
 * <ul>
 *   <li>{@code books}: {@code GET /books/{isbn}/delivery-time}, the service protected by
 *       {@code @CircuitProtected(name = "wholesaler")} and its fallback;</li>
 *   <li>{@code wholesaler}: the HTTP client with its timeouts, and which outcomes mean "unhealthy";</li>
 *   <li>{@code simulator}: a wholesaler on its own port whose behaviour is switched at runtime;</li>
 *   <li>{@code security}: who may force a breaker.</li>
 * </ul>
 */
@SpringBootApplication
@ConfigurationPropertiesScan
public class SampleApplication {

    public static void main(String[] args) {
        SpringApplication.run(SampleApplication.class, args);
    }
}
