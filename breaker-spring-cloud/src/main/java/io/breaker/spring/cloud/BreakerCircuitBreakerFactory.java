package io.breaker.spring.cloud;

import io.breaker.BreakerConfig;
import io.breaker.BreakerRegistry;
import io.breaker.CircuitBreaker;
import io.breaker.spring.aop.RecordedResults;
import io.breaker.spring.call.CallTimeouts;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;
import org.springframework.cloud.client.circuitbreaker.CircuitBreakerFactory;
import org.springframework.cloud.client.circuitbreaker.observation.CircuitBreakerObservationConvention;
import org.springframework.cloud.client.circuitbreaker.observation.ObservedCircuitBreaker;

import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Spring Cloud's {@link CircuitBreakerFactory} on the application's {@link BreakerRegistry}.
 * {@code create(id)} and {@code create(id, group)} return the breaker named {@code id} if it has
 * settings of its own ({@code breakers.instances.<id>}, a {@code BreakerConfigCustomizer.of(id, ...)}
 * or {@link #configure}), else the breaker named after the group if that one has, else a breaker
 * named {@code id} with the settings of {@link #configureDefault}, or {@code breakers.defaults}
 * (logged once per name). The breakers are the registry's: they show in {@code /actuator/breakers},
 * in metrics and health, and a {@code @CircuitProtected} method of the same name shares them.
 *
 * <p>{@link #configure} changes the settings of the named breakers at once, on top of what they have
 * ({@link CloudBreakerConfigBuilder}); a {@code Customizer<BreakerCircuitBreakerFactory>} bean runs
 * when the factory is created, before any call.
 *
 * <p>Given an {@link ObservationRegistry} (other than the no-op one), {@code create} returns Spring Cloud's
 * own {@link ObservedCircuitBreaker} around the breaker: each {@code run} makes an observation named
 * {@code spring.cloud.circuitbreaker}, tagged {@code spring.cloud.circuitbreaker.type=supplier} around
 * the supplier (contextual name {@code circuit-breaker}) and {@code function} around the fallback
 * ({@code circuit-breaker fallback}), with the names of the SPI's default convention or of the
 * {@link CircuitBreakerObservationConvention} given. A call the breaker rejects has only the fallback's.
 *
 * <p>A breaker with a {@code call-timeout} gives up a {@code run} that takes longer: the fallback gets a
 * {@link io.breaker.CallTimeoutException}. Without one, nothing cuts a call.
 */
public class BreakerCircuitBreakerFactory extends CircuitBreakerFactory<BreakerConfig, CloudBreakerConfigBuilder> {

    private final CloudBreakers breakers;
    private final @Nullable ObservationRegistry observations;
    private final @Nullable CircuitBreakerObservationConvention convention;
    private final RecordedResults recordedResults;
    private final CallTimeouts callTimeouts;
    private final Map<CircuitBreaker, org.springframework.cloud.client.circuitbreaker.CircuitBreaker> adapters =
            new ConcurrentHashMap<>();

    /** A factory whose calls make no observation. */
    public BreakerCircuitBreakerFactory(BreakerRegistry registry) {
        this(registry, null, null);
    }

    /**
     * A factory whose calls are observed in {@code observations}, unless it is {@code null} or
     * {@link ObservationRegistry#NOOP}, with {@code convention}'s names if it is not {@code null}.
     */
    public BreakerCircuitBreakerFactory(
            BreakerRegistry registry,
            @Nullable ObservationRegistry observations,
            @Nullable CircuitBreakerObservationConvention convention) {
        this(registry, observations, convention, RecordedResults.NONE, CallTimeouts.VIRTUAL_THREADS);
    }

    /**
     * A factory observed as above, whose breakers count results as their {@code record-result} says
     * ({@link RecordedResults#forAnyResult}): a returned value the rule counts is a failure for the
     * breaker and still the caller's answer.
     */
    public BreakerCircuitBreakerFactory(
            BreakerRegistry registry,
            @Nullable ObservationRegistry observations,
            @Nullable CircuitBreakerObservationConvention convention,
            RecordedResults recordedResults) {
        this(registry, observations, convention, recordedResults, CallTimeouts.VIRTUAL_THREADS);
    }

    /**
     * A factory observed as above, whose breakers with a {@code call-timeout} run their calls as
     * {@code callTimeouts} says (executor, context).
     */
    public BreakerCircuitBreakerFactory(
            BreakerRegistry registry,
            @Nullable ObservationRegistry observations,
            @Nullable CircuitBreakerObservationConvention convention,
            CallTimeouts callTimeouts) {
        this(registry, observations, convention, RecordedResults.NONE, callTimeouts);
    }

    /** A factory observed as above, with {@code record-result} and {@code call-timeout} as given. */
    public BreakerCircuitBreakerFactory(
            BreakerRegistry registry,
            @Nullable ObservationRegistry observations,
            @Nullable CircuitBreakerObservationConvention convention,
            RecordedResults recordedResults,
            CallTimeouts callTimeouts) {
        this.breakers = new CloudBreakers(registry);
        this.observations = observations == null || observations.isNoop() ? null : observations;
        this.convention = convention;
        this.recordedResults = Objects.requireNonNull(recordedResults, "recordedResults");
        this.callTimeouts = Objects.requireNonNull(callTimeouts, "callTimeouts");
    }

    @Override
    public org.springframework.cloud.client.circuitbreaker.CircuitBreaker create(String id) {
        return adapter(breakers.breaker(id, null));
    }

    @Override
    public org.springframework.cloud.client.circuitbreaker.CircuitBreaker create(
            String id, @Nullable String groupName) {
        return adapter(breakers.breaker(id, groupName));
    }

    private org.springframework.cloud.client.circuitbreaker.CircuitBreaker adapter(CircuitBreaker breaker) {
        org.springframework.cloud.client.circuitbreaker.CircuitBreaker adapter = adapters.get(breaker);
        return adapter != null ? adapter : adapters.computeIfAbsent(breaker, this::newAdapter);
    }

    private org.springframework.cloud.client.circuitbreaker.CircuitBreaker newAdapter(CircuitBreaker breaker) {
        CloudCircuitBreaker adapter = new CloudCircuitBreaker(
                breaker, recordedResults.forAnyResult(breaker.getName()), callTimeouts.of(breaker));
        ObservationRegistry registry = observations;
        if (registry == null) {
            return adapter;
        }
        ObservedCircuitBreaker observed = new ObservedCircuitBreaker(adapter, registry);
        if (convention != null) {
            observed.setCustomConvention(convention);
        }
        return observed;
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
