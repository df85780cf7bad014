package io.breaker.spring.aop;

import io.breaker.spring.ResultPredicate;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ResponseEntity;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Optional;

/**
 * The built-in {@code record-result.http-status} rule. A result carries an HTTP status when it is an
 * {@link HttpStatusCode}, or its class has a public instance method {@code getStatusCode()} without
 * parameters that returns one ({@link ResponseEntity}, {@code ClientHttpResponse}, {@code ErrorResponse}).
 * Which of these a method's results are is decided once, from its declared result type; a type that
 * carries none fails start-up. A result whose status is {@code null} is a success. Loaded only when
 * the rule is configured, so Spring Web is needed only then.
 */
final class HttpStatusRule extends RecordedResults.Rule {

    /** Status codes are below this. */
    static final int CODES = 600;

    /** The status getter of each result class met by {@link #forAnyResult}, or none. */
    private static final ClassValue<Optional<Method>> STATUS_GETTERS = new ClassValue<>() {
        @Override
        protected Optional<Method> computeValue(Class<?> type) {
            return Optional.ofNullable(statusGetter(type));
        }
    };

    private final boolean[] failing;

    HttpStatusRule(String property, boolean[] failing) {
        super(property);
        this.failing = failing;
    }

    @Override
    ResultPredicate forMethod(String breaker, Class<?> targetClass, Method method, Class<?> resultType) {
        boolean[] codes = failing;
        if (ResponseEntity.class.isAssignableFrom(resultType)) {
            return result -> failing(codes, ((ResponseEntity<?>) result).getStatusCode());
        }
        if (HttpStatusCode.class.isAssignableFrom(resultType)) {
            return result -> failing(codes, (HttpStatusCode) result);
        }
        Method getter = statusGetter(resultType);
        if (getter == null) {
            throw unfit(
                    breaker,
                    targetClass,
                    method,
                    "but the method's result type " + resultType.getName() + " carries no HTTP status",
                    "Return ResponseEntity, an HttpStatusCode, or a type with a public getStatusCode() that returns"
                            + " HttpStatusCode (for Mono, Flux and CompletionStage: as the element type); or protect"
                            + " this method with a breaker that checks no result (an instance turns off the rule it"
                            + " inherits with record-result.http-status: [])");
        }
        return result -> failing(codes, invoke(getter, result));
    }

    /**
     * Any result: a {@link ResponseEntity}, an {@link HttpStatusCode}, or one whose class has the
     * status getter (looked up once per class) is judged by its status; any other result is a success.
     */
    @Override
    ResultPredicate forAnyResult() {
        boolean[] codes = failing;
        return result -> {
            if (result instanceof ResponseEntity<?> entity) {
                return failing(codes, entity.getStatusCode());
            }
            if (result instanceof HttpStatusCode status) {
                return failing(codes, status);
            }
            Method getter = STATUS_GETTERS.get(result.getClass()).orElse(null);
            return getter != null && failing(codes, invoke(getter, result));
        };
    }

    private static boolean failing(boolean[] codes, @Nullable HttpStatusCode status) {
        if (status == null) {
            return false;
        }
        int code = status.value();
        return code >= 0 && code < CODES && codes[code];
    }

    /** The public {@code HttpStatusCode getStatusCode()} of {@code type}, callable from here; {@code null} if none. */
    private static @Nullable Method statusGetter(Class<?> type) {
        Method getter = ClassUtils.getMethodIfAvailable(type, "getStatusCode");
        if (getter == null
                || Modifier.isStatic(getter.getModifiers())
                || !HttpStatusCode.class.isAssignableFrom(getter.getReturnType())) {
            return null;
        }
        Method callable = ClassUtils.getInterfaceMethodIfPossible(getter, type);
        ReflectionUtils.makeAccessible(callable);
        return callable;
    }

    /** Reads the status; what the getter throws (a ClientHttpResponse's IOException) ends the call as it is. */
    private static @Nullable HttpStatusCode invoke(Method getter, Object result) {
        try {
            return (HttpStatusCode) getter.invoke(result);
        } catch (InvocationTargetException thrown) {
            throw ProtectedMethods.<RuntimeException>sneaky(thrown.getCause());
        } catch (IllegalAccessException impossible) {
            throw new IllegalStateException(impossible);
        }
    }
}
