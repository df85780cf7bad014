package io.breaker.spring.aop;

import org.jspecify.annotations.Nullable;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Arrays;

/**
 * The fallback overloads of one protected method, resolved once. Overloads taking an exception are
 * sorted most specific first, so the first whose type accepts an exception is the one to call; the
 * overload without an exception parameter, if any, serves every other exception.
 *
 * <p>The fallbacks of a Kotlin {@code suspend fun} are suspend funs: their parameters end with the
 * {@code Continuation} (the exception comes before it), and a call runs them as a publisher in the
 * caller's coroutine context ({@link KotlinCalls#invokeSuspending}).
 */
class Fallback {

    private final Method[] withException;
    private final Class<?>[] exceptionTypes;
    private final @Nullable Method withoutException;
    /** Whether the overloads are suspend funs, taking the caller's {@code Continuation} last. */
    private final boolean suspending;

    Fallback(Method[] withException, @Nullable Method withoutException) {
        this(withException, withoutException, false);
    }

    Fallback(Method[] withException, @Nullable Method withoutException, boolean suspending) {
        this.withException = withException.clone();
        this.exceptionTypes = new Class<?>[withException.length];
        for (int i = 0; i < withException.length; i++) {
            Class<?>[] parameters = withException[i].getParameterTypes();
            exceptionTypes[i] = parameters[parameters.length - (suspending ? 2 : 1)];
        }
        this.withoutException = withoutException;
        this.suspending = suspending;
    }

    /** The same overloads, for a subclass that adds to how they are called. */
    Fallback(Fallback overloads) {
        this.withException = overloads.withException;
        this.exceptionTypes = overloads.exceptionTypes;
        this.withoutException = overloads.withoutException;
        this.suspending = overloads.suspending;
    }

    /** The overload serving {@code error}, or {@code null} if none accepts it. */
    @Nullable
    Method select(Throwable error) {
        for (int i = 0; i < exceptionTypes.length; i++) {
            if (exceptionTypes[i].isInstance(error)) {
                return withException[i];
            }
        }
        return withoutException;
    }

    /** Whether some overload accepts {@code error}. */
    boolean serves(Throwable error) {
        return select(error) != null;
    }

    /**
     * Calls the overload serving {@code error}; its own exception propagates unwrapped.
     *
     * @throws Throwable {@code error} itself when no overload accepts it
     */
    @Nullable
    Object invoke(@Nullable Object target, @Nullable Object[] arguments, Throwable error) throws Throwable {
        Method method = select(error);
        if (method == null) {
            throw error;
        }
        return call(method, target, method == withoutException ? arguments : withError(arguments, error));
    }

    /** Calls the overload without an exception parameter, which the caller knows exists. */
    @Nullable
    Object invokeWithoutException(@Nullable Object target, @Nullable Object[] arguments) throws Throwable {
        return call(withoutException, target, arguments);
    }

    /** The overload a rejection of type {@code rejectionType} goes to: a method, or {@code null}. */
    @Nullable
    Method selectFor(Class<? extends Throwable> rejectionType) {
        for (int i = 0; i < exceptionTypes.length; i++) {
            if (exceptionTypes[i].isAssignableFrom(rejectionType)) {
                return withException[i];
            }
        }
        return withoutException;
    }

    /** Whether {@code method} is the overload without an exception parameter. */
    boolean isWithoutException(@Nullable Method method) {
        return method != null && method == withoutException;
    }

    /** The arguments with {@code error} added last, or before a suspend fun's {@code Continuation}. */
    private @Nullable Object[] withError(@Nullable Object[] arguments, Throwable error) {
        @Nullable Object[] extended = Arrays.copyOf(arguments, arguments.length + 1);
        if (suspending) {
            extended[arguments.length] = arguments[arguments.length - 1];
            extended[arguments.length - 1] = error;
        } else {
            extended[arguments.length] = error;
        }
        return extended;
    }

    private @Nullable Object call(Method method, @Nullable Object target, @Nullable Object[] arguments)
            throws Throwable {
        if (suspending) {
            return KotlinCalls.invokeSuspending(method, target, arguments);
        }
        try {
            return method.invoke(target, arguments);
        } catch (InvocationTargetException e) {
            throw e.getTargetException();
        }
    }
}
