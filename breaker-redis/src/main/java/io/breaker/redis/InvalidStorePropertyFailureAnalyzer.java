package io.breaker.redis;

import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.core.Ordered;
import org.springframework.core.PriorityOrdered;

/**
 * Reports a bad store property the way Spring Boot reports its own: what, and what to do. Two cases:
 * a value the store rejects ({@link InvalidStorePropertyException}), and a value that cannot even be
 * bound to one of the store's enums ({@code failure-mode: maybe}, {@code type: mongo}), for which it
 * lists the accepted values as a user writes them, leaving out deprecated aliases.
 *
 * <p>{@link PriorityOrdered}: the starter's analyzer (at the highest {@link Ordered} precedence)
 * explains every {@code breakers.*} binding failure generically; this one knows the store's values,
 * so it is asked first, and answers nothing for other properties.
 */
class InvalidStorePropertyFailureAnalyzer implements FailureAnalyzer, PriorityOrdered {

    private static final ConfigurationPropertyName STORE = ConfigurationPropertyName.of("breakers.store");
    private static final ConfigurationPropertyName INSTANCES = ConfigurationPropertyName.of("breakers.instances");

    @Override
    public FailureAnalysis analyze(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof InvalidStorePropertyException invalid) {
                return analysis(invalid.getProperty(), invalid.getValue(), "", invalid.getAllowed(), invalid);
            }
            if (cause instanceof BindException bind && isStoreProperty(bind.getName())) {
                Class<?> type = bind.getTarget().getType().resolve(Object.class);
                if (type.isEnum()) {
                    ConfigurationProperty property = bind.getProperty();
                    String value = property == null ? "" : String.valueOf(property.getValue());
                    String origin = property == null || property.getOrigin() == null ? ""
                            : " (from " + property.getOrigin() + ")";
                    return analysis(bind.getName().toString(), value, origin, "one of " + PropertyValues.allowed(type),
                            bind);
                }
            }
        }
        return null;
    }

    /** {@code breakers.store.*} or {@code breakers.instances.<name>.store.*}. */
    private static boolean isStoreProperty(ConfigurationPropertyName name) {
        return STORE.isAncestorOf(name) || (INSTANCES.isAncestorOf(name) && name.getNumberOfElements() > 3
                && "store".equals(name.getElement(3, ConfigurationPropertyName.Form.UNIFORM)));
    }

    private static FailureAnalysis analysis(String property, String value, String origin, String allowed,
                                            Throwable cause) {
        return new FailureAnalysis(
                "The shared breaker state cannot start: property '" + property + "' has the value '" + value + "'"
                        + origin + ".",
                "Set " + property + " to " + allowed + ".",
                cause);
    }

    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE;
    }
}
