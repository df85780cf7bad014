package io.breaker.spring.aop;

import org.springframework.core.KotlinDetector;
import org.springframework.core.MethodParameter;
import org.springframework.core.ResolvableType;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

import java.lang.reflect.Method;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Finds the fallback of a protected method, once, and explains why none fits. Rules: a method of the
 * bean's class (or a superclass, or a default method of an interface it implements), any visibility,
 * named as in {@code fallbackMethod}, with the
 * protected method's parameter types, optionally followed by one {@link Throwable} (or subtype)
 * parameter, and a return type the protected method may return. The fallback of a Kotlin
 * {@code suspend fun} is a suspend fun (the exception parameter comes before the {@code Continuation}
 * the compiler adds), and the signatures a message lists for a Kotlin class are written in Kotlin.
 */
final class FallbackResolver {

    private FallbackResolver() {}

    /**
     * @throws InvalidCircuitProtectedException when no method of that name exists or one does not fit
     */
    static Fallback resolve(Class<?> targetClass, Method method, String fallbackName) {
        if (!isMethodName(fallbackName)) {
            throw new InvalidCircuitProtectedException(
                    targetClass.getName(),
                    describe(method),
                    "fallbackMethod '"
                            + fallbackName + "' is not the name of a method: a fallback is a method of "
                            + targetClass.getName()
                            + " itself (declared there, in a superclass or as an interface's default"
                            + " method), named without a class or parameters",
                    List.of(),
                    "Declare the fallback in " + targetClass.getName() + " (it may call " + fallbackName
                            + " in turn) and name it alone, as in fallbackMethod = \"" + simpleName(fallbackName)
                            + "\".");
        }
        List<Method> named = new ArrayList<>();
        List<List<Class<?>>> seen = new ArrayList<>();
        for (Class<?> type = targetClass; type != null && type != Object.class; type = type.getSuperclass()) {
            collect(type.getDeclaredMethods(), fallbackName, seen, named);
        }
        for (Class<?> type : ClassUtils.getAllInterfacesForClassAsSet(targetClass)) {
            Method[] defaults = Arrays.stream(type.getDeclaredMethods())
                    .filter(Method::isDefault)
                    .toArray(Method[]::new);
            collect(defaults, fallbackName, seen, named); // a class's own method wins over an interface's default
        }
        List<String> accepted = acceptedSignatures(method, fallbackName);
        if (named.isEmpty()) {
            throw invalid(
                    targetClass,
                    method,
                    "fallbackMethod '" + fallbackName + "' does not exist in " + targetClass.getName(),
                    accepted);
        }
        boolean suspending = KotlinDetector.isSuspendingFunction(method);
        List<Method> withException = new ArrayList<>();
        Method withoutException = null;
        for (Method candidate : named) {
            int extra = valueParameterCount(candidate) - valueParameterCount(method);
            if (KotlinDetector.isSuspendingFunction(candidate) != suspending
                    || !parametersFit(method, candidate, extra)) {
                continue;
            }
            if (method.getReturnType().isPrimitive()
                    && !candidate.getReturnType().isPrimitive()
                    && ClassUtils.resolvePrimitiveIfNecessary(method.getReturnType()) == candidate.getReturnType()) {
                throw invalid(
                        targetClass,
                        method,
                        "fallback " + signature(candidate) + " returns "
                                + returnTypeName(candidate) + ", which may be null, but "
                                + method.getName()
                                + " returns " + method.getReturnType().getName() + ", which cannot be null",
                        accepted);
            }
            if (!returnFits(targetClass, method, candidate)) {
                throw invalid(
                        targetClass,
                        method,
                        "fallback " + signature(candidate) + " returns "
                                + returnTypeName(candidate) + ", which " + method.getName()
                                + " cannot return",
                        accepted);
            }
            ReflectionUtils.makeAccessible(candidate);
            if (extra == 0) {
                withoutException = candidate;
            } else {
                withException.add(candidate);
            }
        }
        if (withException.isEmpty() && withoutException == null) {
            throw invalid(
                    targetClass,
                    method,
                    "no method named '" + fallbackName + "' in " + targetClass.getName()
                            + " has fitting parameters (found "
                            + named.stream().map(FallbackResolver::signature).collect(Collectors.joining(", ")) + ")",
                    accepted);
        }
        withException.sort(
                Comparator.comparingInt((Method m) -> depth(m.getParameterTypes()[valueParameterCount(m) - 1]))
                        .reversed());
        return new Fallback(withException.toArray(new Method[0]), withoutException, suspending);
    }

    private static void collect(Method[] methods, String fallbackName, List<List<Class<?>>> seen, List<Method> named) {
        for (Method candidate : methods) {
            List<Class<?>> parameters = Arrays.asList(candidate.getParameterTypes());
            if (candidate.getName().equals(fallbackName) && !candidate.isBridge() && !seen.contains(parameters)) {
                seen.add(parameters);
                named.add(candidate);
            }
        }
    }

    private static boolean isMethodName(String name) {
        if (name.isEmpty() || !Character.isJavaIdentifierStart(name.charAt(0))) {
            return false;
        }
        return name.chars().allMatch(Character::isJavaIdentifierPart);
    }

    /** {@code Helper.fb} is {@code fb}; {@code fb(String)} is {@code fb}. */
    private static String simpleName(String written) {
        String name = written.contains("(") ? written.substring(0, written.indexOf('(')) : written;
        return name.substring(Math.max(name.lastIndexOf('.'), name.lastIndexOf('#')) + 1)
                .trim();
    }

    /** The protected method, as {@code name(ParamType, ...)} (a suspend fun without its {@code Continuation}). */
    static String describe(Method method) {
        return method.getName() + "("
                + Arrays.stream(method.getGenericParameterTypes())
                        .limit(valueParameterCount(method))
                        .map(FallbackResolver::shortName)
                        .collect(Collectors.joining(", "))
                + ")";
    }

    static InvalidCircuitProtectedException invalid(
            Class<?> targetClass, Method method, String problem, List<String> accepted) {
        return new InvalidCircuitProtectedException(targetClass.getName(), describe(method), problem, accepted);
    }

    private static boolean parametersFit(Method method, Method candidate, int extra) {
        if (extra != 0 && extra != 1) {
            return false;
        }
        int count = valueParameterCount(method);
        Class<?>[] expected = method.getParameterTypes();
        Class<?>[] actual = candidate.getParameterTypes();
        for (int i = 0; i < count; i++) {
            if (expected[i] != actual[i]) {
                return false;
            }
        }
        return extra == 0 || Throwable.class.isAssignableFrom(actual[count]);
    }

    /** The parameters a caller passes: all of them, but for the {@code Continuation} of a suspend fun. */
    private static int valueParameterCount(Method method) {
        return method.getParameterCount() - (KotlinDetector.isSuspendingFunction(method) ? 1 : 0);
    }

    /** What {@code method} returns, as written: a suspend fun's declared type rather than {@code Object}. */
    private static String returnTypeName(Method method) {
        return shortName(
                KotlinDetector.isSuspendingFunction(method)
                        ? new MethodParameter(method, -1).getGenericParameterType()
                        : method.getGenericReturnType());
    }

    /** Whether messages about {@code method} show Kotlin signatures. */
    private static boolean inKotlin(Method method) {
        return KotlinDetector.isKotlinReflectPresent() && KotlinDetector.isKotlinType(method.getDeclaringClass());
    }

    private static boolean returnFits(Class<?> targetClass, Method method, Method candidate) {
        Class<?> expected = method.getReturnType();
        Class<?> actual = candidate.getReturnType();
        if (expected == void.class || actual == void.class) {
            return expected == actual;
        }
        if (expected.isPrimitive() || actual.isPrimitive()) {
            return ClassUtils.isAssignable(expected, actual);
        }
        return ResolvableType.forMethodReturnType(method, targetClass)
                .isAssignableFrom(ResolvableType.forMethodReturnType(candidate, targetClass));
    }

    private static List<String> acceptedSignatures(Method method, String fallbackName) {
        if (inKotlin(method)) {
            List<String> kotlin = KotlinSignatures.accepted(method, fallbackName);
            if (kotlin != null) {
                return kotlin;
            }
        }
        String returns = shortName(method.getGenericReturnType()) + " " + fallbackName + "(";
        String parameters = Arrays.stream(method.getGenericParameterTypes())
                .map(FallbackResolver::shortName)
                .collect(Collectors.joining(", "));
        return List.of(
                returns + parameters + ")", returns + parameters + (parameters.isEmpty() ? "" : ", ") + "Throwable)");
    }

    private static String signature(Method method) {
        String kotlin = inKotlin(method) ? KotlinSignatures.of(method) : null;
        if (kotlin != null) {
            return kotlin;
        }
        return shortName(method.getGenericReturnType()) + " " + describe(method);
    }

    /** A type's name without package prefixes: {@code CompletableFuture<Integer>}. */
    static String shortName(Type type) {
        return shortName(type.getTypeName());
    }

    /** A type name without package prefixes, Java's or Kotlin's: {@code Flow<String>}. */
    static String shortName(String typeName) {
        return typeName.replaceAll("\\b[a-z][a-z0-9_]*\\.", "");
    }

    private static int depth(Class<?> type) {
        int depth = 0;
        for (Class<?> c = type; c != null; c = c.getSuperclass()) {
            depth++;
        }
        return depth;
    }
}
