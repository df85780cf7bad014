package io.breaker.spring.autoconfigure;

import io.breaker.BreakerConfig;
import org.jspecify.annotations.Nullable;

import java.util.Objects;
import java.util.function.Consumer;

/**
 * Adjusts breaker settings in code, after the properties have been applied. Declare one or more as
 * beans; they run in {@link org.springframework.core.annotation.Order} order.
 *
 * <pre>{@code
 * @Bean
 * BreakerConfigCustomizer wholesalerSlowCalls() {
 *     return BreakerConfigCustomizer.of("wholesaler", builder -> builder.slowCallDurationThreshold(Duration.ofSeconds(2)));
 * }
 *
 * @Bean
 * BreakerConfigCustomizer everyBreaker() {
 *     return builder -> builder.ignoreExceptions(BookNotFoundException.class);
 * }
 * }</pre>
 *
 * A customizer for one name gives that name a configuration of its own, so its breaker exists from
 * start-up like the configured instances.
 */
@FunctionalInterface
public interface BreakerConfigCustomizer {

    /** Adjusts the builder; it already holds the configured settings. */
    void customize(BreakerConfig.Builder builder);

    /**
     * The breaker this customizer is for, or {@code null} (the default) for every breaker, including
     * the defaults that breakers named only in annotations get.
     */
    default @Nullable String breakerName() {
        return null;
    }

    /** A customizer for the breaker called {@code breakerName} only. */
    static BreakerConfigCustomizer of(String breakerName, Consumer<BreakerConfig.Builder> customization) {
        Objects.requireNonNull(breakerName, "breakerName");
        Objects.requireNonNull(customization, "customization");
        return new BreakerConfigCustomizer() {
            @Override
            public void customize(BreakerConfig.Builder builder) {
                customization.accept(builder);
            }

            @Override
            public String breakerName() {
                return breakerName;
            }
        };
    }
}
