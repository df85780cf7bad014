package io.breaker.spring.autoconfigure;

import io.breaker.BreakerConfig;
import io.breaker.Setting;
import io.breaker.spring.aop.InvalidCircuitProtectedException;
import io.breaker.spring.config.InvalidBreakerPropertyException;
import io.breaker.spring.config.PropertyValues;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.BeanUtils;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.UnboundConfigurationPropertiesException;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.core.Ordered;
import org.springframework.core.env.Environment;
import org.springframework.util.ClassUtils;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.Collection;

/**
 * Explains every start-up failure caused by breaker configuration, for all breaker modules: a key no
 * module reads ({@link UnknownBreakerPropertyException}), a value a module rejects
 * ({@link InvalidBreakerPropertyException}), a value under {@code breakers.} that cannot even be
 * converted to its type, and an invalid {@code @CircuitProtected} method. One rule per type, not per
 * setting: an enum lists its values as written in YAML (leaving out deprecated ones), a number or a
 * duration its allowed range, and a value that came from an environment variable names the variable.
 * Runs before Spring Boot's generic binding analyzer.
 */
public class BreakerFailureAnalyzer implements FailureAnalyzer, Ordered {

    private static final ConfigurationPropertyName BREAKERS = ConfigurationPropertyName.of("breakers");
    private static final ConfigurationPropertyName DEFAULTS = ConfigurationPropertyName.of("breakers.defaults");
    private static final ConfigurationPropertyName INSTANCES = ConfigurationPropertyName.of("breakers.instances");

    /** Where a value refused after binding came from; {@code null} when not known. */
    private final @Nullable Environment environment;

    /** An analyzer that cannot tell where a value refused after binding came from. */
    public BreakerFailureAnalyzer() {
        this(null);
    }

    /**
     * @param environment the failed application's environment, to name the environment variable a
     *     refused value came from; {@code null} when not known
     */
    public BreakerFailureAnalyzer(@Nullable Environment environment) {
        this.environment = environment;
    }

    @Override
    public @Nullable FailureAnalysis analyze(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof UnknownBreakerPropertyException unknown) {
                return unknown(unknown);
            }
            if (cause instanceof InvalidBreakerPropertyException invalid) {
                String variable = environmentVariable(invalid.getProperty());
                return analysis(
                        invalid.getProperty(),
                        invalid.getValue(),
                        variable == null ? "" : " (from the environment variable " + variable + ")",
                        invalid.getProblem(),
                        invalid.getAllowed()
                                + (variable == null ? "" : " (in the environment variable " + variable + ")"),
                        cause);
            }
            if (cause instanceof InvalidCircuitProtectedException invalid) {
                return annotation(invalid);
            }
            if (cause instanceof BindException bind && BREAKERS.isAncestorOf(bind.getName())) {
                return binding(bind);
            }
        }
        return null;
    }

    /** The environment variable that holds the winning value of {@code property}, or {@code null}. */
    private @Nullable String environmentVariable(String property) {
        return BreakerPropertiesCheck.environmentVariable(property(property));
    }

    private static FailureAnalysis analysis(
            String property, String value, String origin, String problem, String allowed, Throwable cause) {
        return new FailureAnalysis(
                "The breaker property '" + property + "' has the value '" + value + "'" + origin + ", which is invalid"
                        + (problem.isEmpty() ? "." : ": " + problem + "."),
                "Set '" + property + "' to " + allowed + ".",
                cause);
    }

    private static FailureAnalysis unknown(UnknownBreakerPropertyException unknown) {
        String variable = unknown.getEnvironmentVariable();
        String description = "The breaker property '" + unknown.getProperty() + "' (value '" + unknown.getValue() + "')"
                + (variable == null ? "" : ", from the environment variable " + variable + ",")
                + " is not read by any breaker module: it would be ignored.";
        String action = variable == null
                ? "Replace '" + unknown.getProperty() + "' with '" + unknown.getNearest()
                        + "', the nearest key that is read (check the spelling), or remove it."
                : "Replace the environment variable " + variable + " with "
                        + PropertyValues.environmentVariable(unknown.getNearest()) + ", which sets '"
                        + unknown.getNearest() + "' (in an environment variable, '_'"
                        + " separates the parts of a key and dashes are left out), or remove it.";
        if (unknown.getNearest().contains("[")) {
            action += " A breaker name with characters other than letters, digits and '-' must be written in brackets"
                    + " to be kept as it is (in YAML, quote it: \"[a.b]\":).";
        }
        return new FailureAnalysis(description, action, unknown);
    }

    private FailureAnalysis binding(BindException bind) {
        if (bind.getCause() instanceof UnboundConfigurationPropertiesException unbound
                && !unbound.getUnboundProperties().isEmpty()) {
            return unbound(bind, unbound);
        }
        ConfigurationProperty property = bind.getProperty() != null
                ? bind.getProperty()
                : property(bind.getName().toString());
        String value = property == null ? "" : String.valueOf(property.getValue());
        String variable = BreakerPropertiesCheck.environmentVariable(property);
        String origin = variable != null
                ? " (from the environment variable " + variable + ")"
                : property == null || property.getOrigin() == null ? "" : " (from " + property.getOrigin() + ")";
        Class<?> type = ClassUtils.resolvePrimitiveIfNecessary(
                bind.getTarget().getType().resolve(Object.class));
        Setting<?> setting = setting(bind.getName());
        String range = setting == null ? null : PropertyValues.inPropertyTerms(setting.allowed());
        String problem;
        String allowed;
        if (type.isEnum()) {
            problem = "it is not one of the allowed values";
            allowed = "one of " + PropertyValues.allowed(type);
        } else if (type == Integer.class || type == Long.class || type == Short.class || type == Byte.class) {
            BigDecimal number = number(value);
            BigDecimal max = maximum(type);
            problem = number == null
                    ? "it is not a whole number"
                    : number.abs().compareTo(max) > 0
                            ? "it is beyond " + max.toPlainString() + ", the largest whole number a "
                                    + type.getSimpleName() + " holds"
                            : "it is not a whole number";
            allowed = range != null
                    ? range
                    : "a whole number from "
                            + max.negate().subtract(BigDecimal.ONE).toPlainString() + " to " + max.toPlainString();
        } else if (type == Float.class || type == Double.class) {
            problem = "it is not a number";
            allowed = range != null ? range : "a number";
        } else if (type == Duration.class) {
            problem = "it is not a duration (or one too long to hold)";
            allowed = (range != null ? range : "a duration") + ", such as 800ms or 30s";
        } else if (type == Boolean.class) {
            problem = "it is not a boolean";
            allowed = "true or false";
        } else if (BeanUtils.isSimpleValueType(type) || Collection.class.isAssignableFrom(type)) {
            problem = "it cannot be converted to " + type.getSimpleName() + " ("
                    + NestedExceptionUtils.getMostSpecificCause(bind).getMessage() + ")";
            allowed = range != null ? range : "a valid " + type.getSimpleName();
        } else {
            problem = "it is a section of keys, not a single value";
            allowed = "nothing: set the keys under it instead, such as " + bind.getName()
                    + (type == BreakerProperties.Settings.class ? ".failure-rate-threshold" : ".<key>");
        }
        if (variable != null) {
            allowed += " (in the environment variable " + variable + ")";
        }
        return analysis(bind.getName().toString(), value, origin, problem, allowed, bind);
    }

    /**
     * Elements of a list that Spring Boot left unbound: their indexes do not start at 0 or have a gap
     * ({@code record-exceptions[5]} alone), so the list stops before them.
     */
    private FailureAnalysis unbound(BindException bind, UnboundConfigurationPropertiesException unbound) {
        ConfigurationProperty first = unbound.getUnboundProperties().iterator().next();
        String variable = BreakerPropertiesCheck.environmentVariable(first);
        String origin = variable != null
                ? " (from the environment variable " + variable + ")"
                : first.getOrigin() == null ? "" : " (from " + first.getOrigin() + ")";
        return analysis(
                first.getName().toString(),
                String.valueOf(first.getValue()),
                origin,
                "Spring Boot left it unbound (" + unbound.getMessage() + "): the elements of a list are read from [0]"
                        + " up to the first missing index",
                "an element of '" + bind.getName() + "' numbered from [0] without gaps ("
                        + bind.getName() + "[0], " + bind.getName() + "[1], ...), or write the list as one"
                        + " comma-separated value of '" + bind.getName() + "'",
                bind);
    }

    /** The winning property of that name in the environment, or {@code null}. */
    private @Nullable ConfigurationProperty property(String property) {
        if (environment == null || !ConfigurationPropertyName.isValid(property)) {
            return null;
        }
        ConfigurationPropertyName name = ConfigurationPropertyName.of(property);
        for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
            ConfigurationProperty value = source.getConfigurationProperty(name);
            if (value != null) {
                return value;
            }
        }
        return null;
    }

    /** The breaker setting {@code name} binds to, under {@code breakers.defaults} or {@code breakers.instances.<name>}. */
    private static @Nullable Setting<?> setting(ConfigurationPropertyName name) {
        int index = DEFAULTS.isAncestorOf(name) ? 2 : INSTANCES.isAncestorOf(name) ? 3 : -1;
        if (index < 0 || name.getNumberOfElements() <= index) {
            return null;
        }
        String element = name.getElement(index, ConfigurationPropertyName.Form.UNIFORM);
        for (Setting<?> setting : BreakerConfig.settings()) {
            if (setting.propertyName().replace("-", "").equals(element)) {
                return setting;
            }
        }
        return null;
    }

    private static @Nullable BigDecimal number(String value) {
        try {
            return new BigDecimal(value.trim());
        } catch (NumberFormatException notANumber) {
            return null;
        }
    }

    private static BigDecimal maximum(Class<?> wholeNumberType) {
        long max = wholeNumberType == Long.class
                ? Long.MAX_VALUE
                : wholeNumberType == Integer.class
                        ? Integer.MAX_VALUE
                        : wholeNumberType == Short.class ? Short.MAX_VALUE : Byte.MAX_VALUE;
        return BigDecimal.valueOf(max);
    }

    private static FailureAnalysis annotation(InvalidCircuitProtectedException invalid) {
        String action = invalid.getRemedy() != null
                ? invalid.getRemedy()
                : invalid.getAcceptedSignatures().isEmpty()
                        ? "Fix @CircuitProtected on " + invalid.getBeanClass() + "." + invalid.getMethod() + "."
                        : "Declare a fallback in " + invalid.getBeanClass()
                                + " with one of these signatures (any visibility;"
                                + " the exception parameter may be any Throwable subtype, the most specific overload wins):\n    "
                                + String.join("\n    ", invalid.getAcceptedSignatures())
                                + "\nor remove fallbackMethod from @CircuitProtected.";
        return new FailureAnalysis(
                "@CircuitProtected on " + invalid.getBeanClass() + "." + invalid.getMethod() + " is invalid: "
                        + invalid.getProblem() + ".",
                action,
                invalid);
    }

    /** Before Spring Boot's own analyzers, which would describe a binding failure in general terms. */
    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE;
    }
}
