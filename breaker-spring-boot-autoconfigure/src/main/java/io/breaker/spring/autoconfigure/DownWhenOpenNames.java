package io.breaker.spring.autoconfigure;

import io.breaker.BreakerRegistry;
import io.breaker.CircuitBreaker;
import io.breaker.spring.config.InvalidBreakerPropertyException;

import java.util.Comparator;
import java.util.Set;
import java.util.TreeSet;

/**
 * {@code breakers.health.down-when-open} names breakers that exist at start-up (configured, given a
 * customizer, or named in {@code @CircuitProtected}), or is {@code *}: a misspelt name would otherwise
 * never make the application DOWN, without a word.
 */
final class DownWhenOpenNames {

    private static final String PROPERTY = "breakers.health.down-when-open";

    private DownWhenOpenNames() {}

    /** @throws InvalidBreakerPropertyException naming the first name no breaker has, and the nearest one */
    static void check(Set<String> names, BreakerRegistry registry) {
        Set<String> known = new TreeSet<>(registry.configuredNames());
        registry.all().stream().map(CircuitBreaker::getName).forEach(known::add);
        for (String name : names) {
            if (!name.equals("*") && !known.contains(name)) {
                String nearest = known.stream()
                        .min(Comparator.comparingInt((String candidate) -> DeclaredKeys.score(name, candidate)))
                        .orElse(null);
                throw new InvalidBreakerPropertyException(
                        PROPERTY,
                        name,
                        "no breaker of the start-up has this name",
                        "names of breakers that exist at start-up (configured under breakers.instances or named in"
                                + " @CircuitProtected)" + (nearest == null ? "" : ", such as '" + nearest + "'")
                                + ", or '*' for every breaker",
                        null);
            }
        }
    }
}
