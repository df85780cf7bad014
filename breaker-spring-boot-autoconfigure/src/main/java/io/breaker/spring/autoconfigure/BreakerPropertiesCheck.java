package io.breaker.spring.autoconfigure;

import io.breaker.spring.config.PropertyValues;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.InitializingBean;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.IterableConfigurationPropertySource;
import org.springframework.boot.origin.Origin;
import org.springframework.boot.origin.SystemEnvironmentOrigin;
import org.springframework.core.env.Environment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/**
 * Rejects every key under {@code breakers.} that no breaker module declares ({@link DeclaredKeys}):
 * {@code breakers.default.failure-rate-threshold}, {@code breakers.enable}, a misspelt setting. Binding
 * alone would silently ignore them. A bean of its own, so that it runs also when the application
 * defines its own registry; the starter's registry waits for it.
 */
public class BreakerPropertiesCheck implements InitializingBean {

    private static final ConfigurationPropertyName BREAKERS = ConfigurationPropertyName.of("breakers");

    private final Environment environment;
    private final DeclaredKeys declared;

    public BreakerPropertiesCheck(Environment environment, DeclaredKeys declared) {
        this.environment = environment;
        this.declared = declared;
    }

    /** @throws UnknownBreakerPropertyException naming the first unknown key found and the nearest declared one */
    @Override
    public void afterPropertiesSet() {
        check(environment, declared);
    }

    /** @throws UnknownBreakerPropertyException naming the first unknown key found and the nearest declared one */
    static void check(Environment environment, DeclaredKeys declared) {
        for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
            if (!(source instanceof IterableConfigurationPropertySource iterable)) {
                continue;
            }
            iterable.stream()
                    .filter(BREAKERS::isAncestorOf)
                    .filter(name -> !declared.declares(name))
                    .findFirst()
                    .ifPresent(name -> {
                        ConfigurationProperty property = source.getConfigurationProperty(name);
                        String variable = environmentVariable(property);
                        throw new UnknownBreakerPropertyException(
                                name.toString(),
                                property == null ? "" : String.valueOf(property.getValue()),
                                declared.nearest(name, variable != null),
                                variable);
                    });
        }
    }

    /** The environment variable a property came from, or {@code null}. */
    static @Nullable String environmentVariable(@Nullable ConfigurationProperty property) {
        if (property == null) {
            return null;
        }
        for (Origin origin = property.getOrigin(); origin != null; origin = origin.getParent()) {
            if (origin instanceof SystemEnvironmentOrigin environment) {
                return environment.getProperty();
            }
        }
        if (property.getSource() != null
                && property.getSource().getUnderlyingSource() instanceof SystemEnvironmentPropertySource environment) {
            String dotted = property.getName().toString();
            String canonical = PropertyValues.environmentVariable(dotted);
            for (String variable : environment.getPropertyNames()) {
                if (variable.replace('_', '.').equalsIgnoreCase(dotted) || variable.equalsIgnoreCase(canonical)) {
                    return variable;
                }
            }
        }
        return null;
    }
}
