package io.breaker.spring.autoconfigure;

import io.breaker.SlidingWindowType;
import io.breaker.spring.aop.InvalidCircuitProtectedException;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.core.Ordered;

import java.time.Duration;
import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * Explains a start-up failure caused by breaker configuration: a bad {@code breakers.*} value (one the
 * breaker rejects, or one that cannot even be converted, such as an unknown window type) or an invalid
 * {@code @CircuitProtected} method. Runs before Spring Boot's generic binding analyzer.
 */
public class BreakerFailureAnalyzer implements FailureAnalyzer, Ordered {

    @Override
    public FailureAnalysis analyze(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof InvalidBreakerPropertyException invalid) {
                return property(invalid.getProperty(), invalid.getValue(), invalid.getProblem(), invalid.getAllowed(),
                        cause);
            }
            if (cause instanceof InvalidCircuitProtectedException invalid) {
                return annotation(invalid);
            }
            if (cause instanceof BindException bind && bind.getName().toString().startsWith("breakers.")) {
                return binding(bind);
            }
        }
        return null;
    }

    private static FailureAnalysis property(String property, String value, String problem, String allowed,
                                            Throwable cause) {
        return new FailureAnalysis(
                "The breaker property '" + property + "' has the value '" + value + "', which is invalid: " + problem + ".",
                "Set '" + property + "' to " + allowed + ".", cause);
    }

    private static FailureAnalysis binding(BindException bind) {
        ConfigurationProperty property = bind.getProperty();
        String value = property == null ? "" : String.valueOf(property.getValue());
        String origin = property == null || property.getOrigin() == null ? "" : " (from " + property.getOrigin() + ")";
        Class<?> type = bind.getTarget().getType().resolve(Object.class);
        String allowed;
        String problem;
        if (type == SlidingWindowType.class) {
            problem = "it is not a window type" + origin;
            allowed = "one of " + Arrays.stream(SlidingWindowType.values()).map(Enum::name)
                    .collect(Collectors.joining(", "));
        } else if (type == Duration.class) {
            problem = "it is not a duration" + origin;
            allowed = "a positive duration, such as 800ms or 30s";
        } else if (type == Integer.class || type == int.class) {
            problem = "it is not a whole number" + origin;
            allowed = "a whole number";
        } else if (type == Float.class || type == float.class) {
            problem = "it is not a number" + origin;
            allowed = "a number";
        } else if (type == Boolean.class || type == boolean.class) {
            problem = "it is not a boolean" + origin;
            allowed = "true or false";
        } else {
            problem = "it cannot be converted to " + type.getSimpleName() + origin;
            allowed = "a valid " + type.getSimpleName() + " (see the breakers properties in the documentation)";
        }
        return property(bind.getName().toString(), value, problem, allowed, bind);
    }

    private static FailureAnalysis annotation(InvalidCircuitProtectedException invalid) {
        String action = invalid.getAcceptedSignatures().isEmpty()
                ? "Fix @CircuitProtected on " + invalid.getBeanClass() + "." + invalid.getMethod() + "."
                : "Declare a fallback in " + invalid.getBeanClass() + " with one of these signatures (any visibility;"
                + " the exception parameter may be any Throwable subtype, the most specific overload wins):\n    "
                + String.join("\n    ", invalid.getAcceptedSignatures())
                + "\nor remove fallbackMethod from @CircuitProtected.";
        return new FailureAnalysis("@CircuitProtected on " + invalid.getBeanClass() + "." + invalid.getMethod()
                + " is invalid: " + invalid.getProblem() + ".", action, invalid);
    }

    /** Before Spring Boot's own analyzers, which would describe a binding failure in general terms. */
    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE;
    }
}
