package io.breaker.test;

import io.breaker.BreakerRegistry;
import io.breaker.spring.autoconfigure.BreakerAutoConfiguration;
import io.breaker.spring.autoconfigure.BreakerFailureAnalyzer;
import io.breaker.spring.autoconfigure.BreakerProperties;
import io.breaker.spring.autoconfigure.BreakerPropertiesCheck;
import io.breaker.spring.autoconfigure.BreakerRegistryFactory;
import io.breaker.spring.autoconfigure.DeclaredKeys;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.PropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.io.ClassPathResource;
import org.springframework.core.io.Resource;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A breaker's settings as an application ships them (its YAML, or a map of properties), checked as a
 * unit without Spring and without real time. The settings are bound, checked and turned into breakers
 * by the starter's own code, so a bad value fails here with the message start-up would give. Each
 * {@link #scenario(String)} is a new breaker on a clock of its own:
 *
 * <pre>{@code
 * BreakerScenario wholesaler = BreakerSettings.fromYaml("application.yml").scenario("wholesaler");
 * wholesaler.succeed(7).fail(3);              // 3 failures in 10 calls: still CLOSED
 * wholesaler.fail(2);                         // 5 in 10: OPEN
 * wholesaler.advance(Duration.ofSeconds(10)).succeed(); // one probe after the wait closes it
 * }</pre>
 */
public final class BreakerSettings {

    private static final String ON_PROFILE = "spring.config.activate.on-profile";

    private final BreakerProperties properties;

    private BreakerSettings(BreakerProperties properties) {
        this.properties = properties;
    }

    /**
     * The {@code breakers.*} settings of YAML files on the class path (such as {@code application.yml},
     * then {@code application-test.yml}): a later file, and a later document in a file, wins, as for
     * Spring Boot's profile files. A document for a profile ({@code spring.config.activate.on-profile})
     * is left out: list the profile's own file instead.
     *
     * @throws InvalidBreakerSettingsException as start-up would fail, naming the property
     */
    public static BreakerSettings fromYaml(String... classpathResources) {
        List<PropertySource<?>> sources = new ArrayList<>();
        for (String name : classpathResources) {
            load(new ClassPathResource(name, BreakerSettings.class.getClassLoader())).stream()
                    .filter(document -> !document.containsProperty(ON_PROFILE))
                    .forEach(sources::add);
        }
        return of(sources);
    }

    /**
     * Settings from properties, keyed as in an {@code application.properties} file:
     * {@code Map.of("breakers.instances.wholesaler.failure-rate-threshold", 50)}.
     *
     * @throws InvalidBreakerSettingsException as start-up would fail, naming the property
     */
    public static BreakerSettings fromProperties(Map<String, ?> properties) {
        return of(List.of(new MapPropertySource("test properties", Map.copyOf(properties))));
    }

    /**
     * A new breaker with the settings of {@code name} (its own, then {@code breakers.defaults}), on a
     * new clock that stands still until the scenario moves it.
     *
     * @throws IllegalArgumentException if {@code name} is not under {@code breakers.instances}
     */
    public BreakerScenario scenario(String name) {
        if (!properties.getInstances().containsKey(name)) {
            throw new IllegalArgumentException("No breaker named '" + name + "' under breakers.instances; the"
                    + " breakers configured are " + properties.getInstances().keySet());
        }
        BreakerClock clock = BreakerClock.startingNow();
        BreakerRegistry registry = registry(clock);
        return new BreakerScenario(registry.breaker(name), clock);
    }

    /** Every configured breaker, built as the starter builds them, on {@code clock}. */
    public BreakerRegistry registry(BreakerClock clock) {
        try {
            return new BreakerRegistryFactory(
                            properties, List.of(), null, clock, BreakerAutoConfiguration.class.getClassLoader())
                    .withWallClock(clock.wallClock())
                    .create();
        } catch (RuntimeException failure) {
            throw reported(failure);
        }
    }

    private static BreakerSettings of(List<PropertySource<?>> sources) {
        StandardEnvironment environment = new StandardEnvironment();
        environment.getPropertySources().remove(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME);
        environment.getPropertySources().remove(StandardEnvironment.SYSTEM_PROPERTIES_PROPERTY_SOURCE_NAME);
        for (PropertySource<?> source : sources) {
            environment.getPropertySources().addFirst(source); // the last one wins
        }
        try {
            new BreakerPropertiesCheck(environment, DeclaredKeys.load(BreakerAutoConfiguration.class.getClassLoader()))
                    .afterPropertiesSet();
            BreakerProperties properties = Binder.get(environment).bindOrCreate("breakers", BreakerProperties.class);
            BreakerSettings settings = new BreakerSettings(properties);
            settings.registry(BreakerClock.startingNow()); // every breaker's settings checked now
            return settings;
        } catch (RuntimeException failure) {
            throw reported(failure);
        }
    }

    /** The start-up failure report of a bad setting, or the failure itself if it is none. */
    private static RuntimeException reported(RuntimeException failure) {
        if (failure instanceof InvalidBreakerSettingsException) {
            return failure;
        }
        FailureAnalysis analysis = new BreakerFailureAnalyzer().analyze(failure);
        return analysis == null
                ? failure
                : new InvalidBreakerSettingsException(analysis.getDescription(), analysis.getAction(), failure);
    }

    private static List<PropertySource<?>> load(Resource resource) {
        if (!resource.exists()) {
            throw new IllegalArgumentException("No " + resource.getDescription());
        }
        try {
            return new YamlPropertySourceLoader().load(resource.getDescription(), resource);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + resource.getDescription(), e);
        }
    }
}
