package io.breaker.spring.config;

import org.springframework.util.ClassUtils;

import java.util.ArrayList;
import java.util.List;

/**
 * The exception classes a property names ({@code record-exceptions}, {@code ignore-exceptions}),
 * loaded the same way, with the same messages, at start-up and for a change at runtime.
 */
public final class ExceptionClasses {

    private static final String ALLOWED =
            "fully qualified names of classes on the classpath that extend java.lang.Throwable";

    private static final String ONE_ALLOWED =
            "the fully qualified name of a class on the classpath that extends java.lang.Throwable";

    private ExceptionClasses() {}

    /**
     * The one class {@code property} names ({@code fault-exception}).
     *
     * @throws InvalidBreakerPropertyException when it names no class on the classpath or a class that is
     *                                         not a Throwable
     */
    public static Class<? extends Throwable> loadOne(String property, Object name, ClassLoader classLoader) {
        String className = name.toString().trim();
        Class<?> type;
        try {
            type = ClassUtils.forName(className, classLoader);
        } catch (ClassNotFoundException | LinkageError | IllegalArgumentException e) {
            throw new InvalidBreakerPropertyException(
                    property, className, "no such class on the classpath", ONE_ALLOWED, e);
        }
        if (!Throwable.class.isAssignableFrom(type)) {
            throw new InvalidBreakerPropertyException(
                    property, className, "the class is not a Throwable", ONE_ALLOWED, null);
        }
        return type.asSubclass(Throwable.class);
    }

    /**
     * The classes named in {@code property}, in the order written.
     *
     * @throws InvalidBreakerPropertyException for the first element ({@code property[i]}) that names no
     *                                         class on the classpath or a class that is not a Throwable
     */
    public static List<Class<? extends Throwable>> load(String property, List<?> names, ClassLoader classLoader) {
        List<Class<? extends Throwable>> types = new ArrayList<>(names.size());
        for (int i = 0; i < names.size(); i++) {
            String element = property + "[" + i + "]";
            String className =
                    names.get(i) == null ? "" : names.get(i).toString().trim();
            Class<?> type;
            try {
                type = ClassUtils.forName(className, classLoader);
            } catch (ClassNotFoundException | LinkageError | IllegalArgumentException e) {
                throw new InvalidBreakerPropertyException(
                        element, className, "no such class on the classpath", ALLOWED, e);
            }
            if (!Throwable.class.isAssignableFrom(type)) {
                throw new InvalidBreakerPropertyException(
                        element, className, "the class is not a Throwable", ALLOWED, null);
            }
            types.add(type.asSubclass(Throwable.class));
        }
        return types;
    }
}
