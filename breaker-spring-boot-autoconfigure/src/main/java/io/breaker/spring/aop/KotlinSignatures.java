package io.breaker.spring.aop;

import kotlin.reflect.KFunction;
import kotlin.reflect.KParameter;
import kotlin.reflect.jvm.ReflectJvmMapping;
import org.jspecify.annotations.Nullable;

import java.lang.reflect.Method;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Functions of Kotlin classes as their authors write them, for start-up messages:
 * {@code suspend fun find(id: String): String}. Loaded only when kotlin-reflect is on the class path.
 */
final class KotlinSignatures {

    private KotlinSignatures() {}

    /**
     * The fallbacks {@code method} accepts, named {@code fallbackName}: without and with the exception,
     * or {@code null} when Kotlin does not know the method.
     */
    static @Nullable List<String> accepted(Method method, String fallbackName) {
        KFunction<?> function = function(method);
        if (function == null) {
            return null;
        }
        String parameters = parameters(function);
        String head = (function.isSuspend() ? "suspend fun " : "fun ") + fallbackName + "(";
        String returns = "): " + type(function.getReturnType().toString());
        return List.of(
                head + parameters + returns,
                head + parameters + (parameters.isEmpty() ? "" : ", ") + "e: Throwable" + returns);
    }

    /** {@code method} as declared in Kotlin, or {@code null} when Kotlin does not know it. */
    static @Nullable String of(Method method) {
        KFunction<?> function = function(method);
        if (function == null) {
            return null;
        }
        return (function.isSuspend() ? "suspend fun " : "fun ") + function.getName() + "(" + parameters(function)
                + "): " + type(function.getReturnType().toString());
    }

    private static @Nullable KFunction<?> function(Method method) {
        try {
            return ReflectJvmMapping.getKotlinFunction(method);
        } catch (UnsupportedOperationException e) {
            return null; // a synthetic class, which Kotlin reflection cannot read: the Java signature will do
        }
    }

    private static String parameters(KFunction<?> function) {
        return function.getParameters().stream()
                .filter(parameter -> parameter.getKind() == KParameter.Kind.VALUE)
                .map(parameter -> (parameter.getName() != null ? parameter.getName() : "p" + parameter.getIndex())
                        + ": " + type(parameter.getType().toString()))
                .collect(Collectors.joining(", "));
    }

    private static String type(String qualified) {
        return FallbackResolver.shortName(qualified);
    }
}
