package io.breaker.spring.autoconfigure;

import io.breaker.spring.config.PropertyValues;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.BeanUtils;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName.Form;
import org.springframework.core.ResolvableType;
import org.springframework.core.io.support.SpringFactoriesLoader;

import java.beans.PropertyDescriptor;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Every key the breaker modules on the classpath read under {@code breakers.}, derived from the
 * classes they bind ({@link BreakerPropertyKeys}): which keys exist, and which one a misspelt key was
 * meant to be.
 */
public final class DeclaredKeys {

    private static final String ANY_NAME = "*";

    private final List<Key> keys;

    private DeclaredKeys(List<Key> keys) {
        this.keys = List.copyOf(keys);
    }

    /** The keys declared by every module on the class path. */
    public static DeclaredKeys load(ClassLoader classLoader) {
        List<BreakerPropertyKeys> modules =
                SpringFactoriesLoader.forDefaultResourceLocation(classLoader).load(BreakerPropertyKeys.class);
        List<Key> keys = new ArrayList<>();
        for (BreakerPropertyKeys module : modules) {
            new TreeMap<>(module.boundClasses())
                    .forEach((prefix, type) -> walk(List.of(prefix.split("\\.")), type, keys));
        }
        return new DeclaredKeys(keys);
    }

    /** The keys, with {@code *} for a breaker name and {@code [*]} after a list, sorted: {@code breakers.instances.*.probe-lease}. */
    public List<String> patterns() {
        return keys.stream().map(Key::toString).sorted().toList();
    }

    /**
     * Whether a module reads {@code name}: a declared key, an element of a declared list, or a section
     * that holds declared keys ({@code breakers.instances.wholesaler}).
     */
    public boolean declares(ConfigurationPropertyName name) {
        return keys.stream().anyMatch(key -> key.matches(name));
    }

    /**
     * The declared key nearest to {@code name}, with the breaker name and list indexes of {@code name}:
     * {@code breakers.default.failure-rate-threshold} is nearest to
     * {@code breakers.defaults.failure-rate-threshold}. Compared without separators when the name came
     * from an environment variable, whose {@code _} stands for both dots and dashes.
     */
    public String nearest(ConfigurationPropertyName name, boolean fromEnvironment) {
        String bracketed = bracketedBreakerName(name);
        if (bracketed != null) {
            return bracketed;
        }
        int indexes = 0;
        while (indexes < name.getNumberOfElements() - 1
                && name.isNumericIndex(name.getNumberOfElements() - 1 - indexes)) {
            indexes++;
        }
        ConfigurationPropertyName stem = name.chop(name.getNumberOfElements() - indexes);
        String suffix = name.toString().substring(stem.toString().length());
        String typed = fromEnvironment ? joined(stem) : stem.toString();
        return keys.stream()
                .map(key -> key.instantiate(stem))
                .min(Comparator.comparingInt((String candidate) -> score(
                                typed, fromEnvironment ? joined(ConfigurationPropertyName.of(candidate)) : candidate))
                        .thenComparing(Comparator.naturalOrder()))
                .map(candidate -> candidate + suffix)
                .orElseThrow();
    }

    /**
     * {@code breakers.instances.a.b.probe-lease} read as the breaker {@code a.b}: a name with dots must be
     * written in brackets, {@code breakers.instances[a.b].probe-lease}. Null when no split fits.
     */
    private @Nullable String bracketedBreakerName(ConfigurationPropertyName name) {
        ConfigurationPropertyName instances = ConfigurationPropertyName.of("breakers.instances");
        if (!instances.isAncestorOf(name) || name.getNumberOfElements() < 5) {
            return null;
        }
        for (int end = 4; end < name.getNumberOfElements(); end++) {
            StringBuilder breaker = new StringBuilder(name.getElement(2, Form.ORIGINAL));
            for (int i = 3; i < end; i++) {
                breaker.append('.').append(name.getElement(i, Form.ORIGINAL));
            }
            StringBuilder candidate =
                    new StringBuilder("breakers.instances[").append(breaker).append(']');
            for (int i = end; i < name.getNumberOfElements(); i++) {
                candidate.append(
                        name.isNumericIndex(i)
                                ? "[" + name.getElement(i, Form.ORIGINAL) + "]"
                                : "." + name.getElement(i, Form.ORIGINAL));
            }
            ConfigurationPropertyName bracketed = ConfigurationPropertyName.of(candidate.toString());
            if (keys.stream().anyMatch(key -> key.matchesExactly(bracketed))) {
                return candidate.toString();
            }
        }
        return null;
    }

    private static String joined(ConfigurationPropertyName name) {
        StringBuilder all = new StringBuilder();
        for (int i = 0; i < name.getNumberOfElements(); i++) {
            all.append(name.getElement(i, Form.UNIFORM));
        }
        return all.toString();
    }

    /**
     * How far {@code typed} is from {@code candidate}: the edits (insertions, deletions, substitutions of
     * one character) that turn one into the other, or, if fewer, one more than the edits that turn
     * {@code typed} into the start of {@code candidate}: a key cut short ({@code wait-duration}) is
     * close to the key it starts ({@code wait-duration-in-open-state}).
     */
    static int score(String typed, String candidate) {
        int[] previous = new int[candidate.length() + 1];
        int[] current = new int[candidate.length() + 1];
        for (int j = 0; j <= candidate.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= typed.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= candidate.length(); j++) {
                int substitution = previous[j - 1] + (typed.charAt(i - 1) == candidate.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        int toStart = Integer.MAX_VALUE;
        for (int distance : previous) {
            toStart = Math.min(toStart, distance);
        }
        return Math.min(previous[candidate.length()], toStart + 1);
    }

    /** Adds the keys of {@code type}'s JavaBean properties under {@code prefix}. */
    private static void walk(List<String> prefix, Class<?> type, List<Key> keys) {
        for (PropertyDescriptor property : BeanUtils.getPropertyDescriptors(type)) {
            if (property.getReadMethod() == null || property.getName().equals("class")) {
                continue;
            }
            List<String> path = new ArrayList<>(prefix);
            path.add(PropertyValues.dashed(property.getName()));
            ResolvableType propertyType = ResolvableType.forMethodReturnType(property.getReadMethod());
            Class<?> raw = propertyType.toClass();
            if (Map.class.isAssignableFrom(raw)) {
                path.add(ANY_NAME);
                Class<?> values = propertyType.asMap().getGeneric(1).toClass();
                if (isLeaf(values)) {
                    keys.add(new Key(path, true));
                } else {
                    walk(path, values, keys);
                }
            } else if (Collection.class.isAssignableFrom(raw) || raw.isArray()) {
                keys.add(new Key(path, true));
            } else if (isLeaf(raw)) {
                keys.add(new Key(path, false));
            } else {
                walk(path, raw, keys);
            }
        }
    }

    private static boolean isLeaf(Class<?> type) {
        return BeanUtils.isSimpleValueType(type)
                || type.isEnum()
                || type.getName().startsWith("java.");
    }

    /** One declared key: its elements ({@code *} for any breaker name), and whether indexes may follow it. */
    private record Key(List<String> elements, boolean indexed) {

        boolean matches(ConfigurationPropertyName name) {
            int common = Math.min(elements.size(), name.getNumberOfElements());
            for (int i = 0; i < common; i++) {
                if (!elementMatches(i, name)) {
                    return false;
                }
            }
            if (name.getNumberOfElements() <= elements.size()) {
                return true; // the key itself, or a section above it
            }
            for (int i = elements.size(); i < name.getNumberOfElements(); i++) {
                if (!indexed || !name.isNumericIndex(i)) {
                    return false;
                }
            }
            return true;
        }

        boolean matchesExactly(ConfigurationPropertyName name) {
            return name.getNumberOfElements() == elements.size() && matches(name);
        }

        private boolean elementMatches(int i, ConfigurationPropertyName name) {
            String element = elements.get(i);
            return element.equals(ANY_NAME)
                    || element.replace("-", "").toLowerCase(Locale.ROOT).equals(name.getElement(i, Form.UNIFORM));
        }

        /** This key as a user would write it, with the breaker name taken from {@code like}. */
        String instantiate(ConfigurationPropertyName like) {
            List<String> written = new ArrayList<>();
            for (int i = 0; i < elements.size(); i++) {
                String element = elements.get(i);
                if (element.equals(ANY_NAME)) {
                    written.add(i < like.getNumberOfElements() ? like.getElement(i, Form.DASHED) : "name");
                } else {
                    written.add(element);
                }
            }
            return String.join(".", written);
        }

        @Override
        public String toString() {
            return String.join(".", elements) + (indexed ? "[*]" : "");
        }
    }
}
