package io.breaker.spring.cloud;

import io.breaker.BreakerConfig;
import io.breaker.BreakerRegistry;
import io.breaker.CircuitBreaker;
import io.breaker.spring.aop.RecordedResults;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;
import org.springframework.cloud.client.circuitbreaker.ReactiveCircuitBreaker;
import org.springframework.cloud.client.circuitbreaker.ReactiveCircuitBreakerFactory;
import org.springframework.cloud.client.circuitbreaker.observation.CircuitBreakerObservationConvention;

import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Spring Cloud's {@link ReactiveCircuitBreakerFactory} on the application's {@link BreakerRegistry}.
 * {@code create(id)} and {@code create(id, group)} return the breaker named {@code id} if it has
 * settings of its own ({@code breakers.instances.<id>}, a {@code BreakerConfigCustomizer.of(id, ...)}
 * or {@link #configure}), else the breaker named after the group if that one has, else a breaker
 * named {@code id} with the settings of {@link #configureDefault}, or {@code breakers.defaults}
 * (logged once per name). The breakers are the registry's: they show in {@code /actuator/breakers},
 * in metrics and health, and a {@code @CircuitProtected} method of the same name shares them.
 *
 * <p>{@link #configure} changes the settings of the named breakers at once, on top of what they have
 * ({@link CloudBreakerConfigBuilder}); a {@code Customizer<ReactiveBreakerCircuitBreakerFactory>} bean runs
 * when the factory is created, before any call.
 *
 * <p>Given an {@link ObservationRegistry} (other than the no-op one), each subscription to a {@code run} makes
 * the observations of Spring Cloud's blocking {@code ObservedCircuitBreaker}, with the same names and
 * key values: {@code spring.cloud.circuitbreaker}, tagged {@code spring.cloud.circuitbreaker.type=supplier}
 * around the publisher (contextual name {@code circuit-breaker}) and {@code function} around the
 * fallback's publisher ({@code circuit-breaker fallback}), or those of the
 * {@link CircuitBreakerObservationConvention} given. A call the breaker rejects has only the fallback's.
 */
public class ReactiveBreakerCircuitBreakerFactory
        extends ReactiveCircuitBreakerFactory<BreakerConfig, CloudBreakerConfigBuilder> {

    private final CloudBreakers breakers;
    private final @Nullable ObservationRegistry observations;
    private final @Nullable CircuitBreakerObservationConvention convention;
    private final RecordedResults recordedResults;
    private final Map<CircuitBreaker, ReactiveCircuitBreaker> adapters = new ConcurrentHashMap<>();

    /** A factory whose calls make no observation. */
    public ReactiveBreakerCircuitBreakerFactory(BreakerRegistry registry) {
        this(registry, null, null);
    }

    /**
     * A factory whose calls are observed in {@code observations}, unless it is {@code null} or
     * {@link ObservationRegistry#NOOP}, with {@code convention}'s names if it is not {@code null}.
     */
    public ReactiveBreakerCircuitBreakerFactory(
            BreakerRegistry registry,
            @Nullable ObservationRegistry observations,
            @Nullable CircuitBreakerObservationConvention convention) {
        this(registry, observations, convention, RecordedResults.NONE);
    }

    /**
     * A factory observed as above, whose breakers count results as their {@code record-result} says
     * ({@link RecordedResults#forAnyResult}): a returned value the rule counts is a failure for the
     * breaker and still the caller's answer.
     */
    public ReactiveBreakerCircuitBreakerFactory(
            BreakerRegistry registry,
            @Nullable ObservationRegistry observations,
            @Nullable CircuitBreakerObservationConvention convention,
            RecordedResults recordedResults) {
        this.breakers = new CloudBreakers(registry);
        this.observations = observations == null || observations.isNoop() ? null : observations;
        this.convention = convention;
        this.recordedResults = Objects.requireNonNull(recordedResults, "recordedResults");
    }

    @Override
    public ReactiveCircuitBreaker create(String id) {
        return adapter(breakers.breaker(id, null));
    }

    @Override
    public ReactiveCircuitBreaker create(String id, @Nullable String groupName) {
        return adapter(breakers.breaker(id, groupName));
    }

    private ReactiveCircuitBreaker adapter(CircuitBreaker breaker) {
        ReactiveCircuitBreaker adapter = adapters.get(breaker);
        return adapter != null ? adapter : adapters.computeIfAbsent(breaker, this::newAdapter);
    }

    private ReactiveCircuitBreaker newAdapter(CircuitBreaker breaker) {
        ReactiveCloudCircuitBreaker adapter =
                new ReactiveCloudCircuitBreaker(breaker, recordedResults.forAnyResult(breaker.getName()));
        ObservationRegistry registry = observations;
        return registry == null ? adapter : new ObservedReactiveCircuitBreaker(adapter, registry, convention);
    }

    /**
     * Gives each named breaker the settings {@code consumer} makes, on top of its configured ones; a
     * breaker that did not exist is created, so that it shows in {@code /actuator/breakers} at once.
     */
    @Override
    public void configure(Consumer<CloudBreakerConfigBuilder> consumer, String... ids) {
        super.configure(consumer, ids);
        for (String id : ids) {
            breakers.configure(id, getConfigurations().get(id));
        }
        adapters.clear(); // an adapter holds its breaker's slow-call threshold
    }

    @Override
    protected CloudBreakerConfigBuilder configBuilder(String id) {
        return new CloudBreakerConfigBuilder(id, breakers.baseFor(id));
    }

    /**
     * The settings of breakers created from a Spring Cloud id that has no settings of its own (instead
     * of {@code breakers.defaults}); called once per such id.
     */
    @Override
    public void configureDefault(Function<String, BreakerConfig> defaultConfiguration) {
        breakers.configureDefault(defaultConfiguration);
    }
}
