package io.breaker.spring.autoconfigure;

import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName.Form;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.IterableConfigurationPropertySource;
import org.springframework.core.env.Environment;

import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Rejects a misspelt setting under {@code breakers.defaults} or {@code breakers.instances.<name>}
 * ({@code failure-rate-treshold}), which binding alone would silently ignore. Other keys under
 * {@code breakers.} belong to other features and are left alone.
 */
final class UnknownSettingCheck {

    static final List<String> SETTINGS = List.of("sliding-window-type", "sliding-window-size",
            "minimum-number-of-calls", "failure-rate-threshold", "slow-call-rate-threshold",
            "slow-call-duration-threshold", "wait-duration-in-open-state", "permitted-calls-in-half-open-state",
            "probe-lease", "record-exceptions", "ignore-exceptions",
            "store" /* store.type: memory or redis, read by breaker-redis */);

    private static final Map<String, String> BY_UNIFORM_NAME = SETTINGS.stream()
            .collect(Collectors.toMap(setting -> setting.replace("-", ""), Function.identity()));
    private static final ConfigurationPropertyName DEFAULTS = ConfigurationPropertyName.of("breakers.defaults");
    private static final ConfigurationPropertyName INSTANCES = ConfigurationPropertyName.of("breakers.instances");

    private UnknownSettingCheck() {
    }

    /** @throws InvalidBreakerPropertyException naming the first unknown setting found */
    static void check(Environment environment) {
        for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
            if (!(source instanceof IterableConfigurationPropertySource iterable)) {
                continue;
            }
            iterable.stream().forEach(name -> {
                int settingIndex = DEFAULTS.isAncestorOf(name) ? 2 : INSTANCES.isAncestorOf(name) ? 3 : -1;
                if (settingIndex < 0 || name.getNumberOfElements() <= settingIndex) {
                    return;
                }
                String setting = name.getElement(settingIndex, Form.UNIFORM);
                if (!BY_UNIFORM_NAME.containsKey(setting)) {
                    ConfigurationProperty property = source.getConfigurationProperty(name);
                    throw new InvalidBreakerPropertyException(name.toString(),
                            property == null ? "" : String.valueOf(property.getValue()),
                            "'" + name.getElement(settingIndex, Form.DASHED) + "' is not a breaker setting",
                            "one of the settings " + String.join(", ", SETTINGS)
                                    + " (check the spelling)", null);
                }
            });
        }
    }
}
