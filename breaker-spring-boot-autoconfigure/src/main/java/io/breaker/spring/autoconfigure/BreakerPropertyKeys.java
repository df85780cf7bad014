package io.breaker.spring.autoconfigure;

import java.util.Map;

/**
 * The keys a breaker module reads under {@code breakers.}, declared by the classes those keys bind to
 * (their JavaBean properties, dashed, make the keys). Each module lists its implementation in
 * {@code META-INF/spring.factories} under this interface's name; start-up rejects every key under
 * {@code breakers.} that no module on the classpath declares, naming the nearest declared one.
 */
public interface BreakerPropertyKeys {

    /**
     * Each class bound under {@code breakers.}, by the prefix it is bound to; {@code *} in a prefix
     * stands for any breaker name ({@code breakers.instances.*}).
     */
    Map<String, Class<?>> boundClasses();
}
