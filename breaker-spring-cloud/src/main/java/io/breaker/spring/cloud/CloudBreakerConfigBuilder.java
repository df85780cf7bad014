package io.breaker.spring.cloud;

import io.breaker.BreakerConfig;
import io.breaker.InvalidSettingException;
import io.breaker.spring.BreakerNames;
import io.breaker.spring.config.InvalidBreakerPropertyException;
import org.springframework.cloud.client.circuitbreaker.ConfigBuilder;

import java.util.Objects;
import java.util.function.Consumer;

/**
 * The settings of one breaker, given through Spring Cloud's {@code configure(consumer, ids...)}. It
 * starts from what the breaker has already: its {@code breakers.instances.<id>} settings, else
 * {@code breakers.defaults}; what the consumer sets comes on top.
 *
 * <pre>{@code
 * @Bean
 * Customizer<BreakerCircuitBreakerFactory> wholesalerSlowCalls() {
 *     return factory -> factory.configure(
 *             breaker -> breaker.settings(b -> b.slowCallDurationThreshold(Duration.ofSeconds(2))), "wholesaler");
 * }
 * }</pre>
 *
 * A value out of range is refused with the message the same value gets in YAML, naming the property
 * of that breaker's setting ({@code breakers.instances.wholesaler.failure-rate-threshold}).
 */
public final class CloudBreakerConfigBuilder implements ConfigBuilder<BreakerConfig> {

    private final String id;
    private final BreakerConfig.Builder builder;

    CloudBreakerConfigBuilder(String id, BreakerConfig base) {
        this.id = id;
        this.builder = base.toBuilder();
    }

    /** The breaker this builder configures. */
    public String id() {
        return id;
    }

    /** Changes settings on the core's builder, which holds the breaker's settings so far. */
    public CloudBreakerConfigBuilder settings(Consumer<BreakerConfig.Builder> settings) {
        Objects.requireNonNull(settings, "settings");
        try {
            settings.accept(builder);
        } catch (InvalidSettingException invalid) {
            throw refused(id, invalid);
        }
        return this;
    }

    @Override
    public BreakerConfig build() {
        try {
            return builder.build();
        } catch (InvalidSettingException invalid) {
            throw refused(id, invalid);
        }
    }

    /** A value the core refused for breaker {@code id}, reported as the property of that setting. */
    static InvalidBreakerPropertyException refused(String id, InvalidSettingException invalid) {
        return InvalidBreakerPropertyException.of(
                "breakers.instances." + BreakerNames.propertyKey(id) + "."
                        + invalid.getSetting().propertyName(),
                invalid);
    }
}
