package io.breaker.spring;

import org.jspecify.annotations.Nullable;

import java.util.Locale;
import java.util.Map;

/**
 * Which breaker names are valid, checked at start-up for every name in {@code @CircuitProtected},
 * {@code breakers.instances} and {@code BreakerConfigCustomizer.of}: one or more letters (of any
 * script), digits, {@code -}, {@code _} or {@code .}, and not {@code .} or {@code ..} alone. Such a name
 * fits in one segment of a URL path ({@code /actuator/breakers/{name}}) and, written in brackets, in
 * a property key ({@code breakers.instances.[a.b].probe-lease}). {@code stream} and {@code console} are
 * taken by the endpoint itself ({@code /actuator/breakers/stream} and {@code /actuator/breakers/console}):
 * a breaker of that name could not be read there.
 */
public final class BreakerNames {

    /** The rule, for messages. */
    public static final String RULE =
            "one or more letters, digits, '-', '_' or '.' (not '.' or '..' alone, nor 'stream' or 'console')";

    /** The endpoint's own paths under {@code /actuator/breakers}, by the name they take. */
    private static final Map<String, String> RESERVED = Map.of("stream", "event stream", "console", "console");

    private BreakerNames() {}

    /** What is wrong with {@code name}, or {@code null} when it is a valid breaker name. */
    public static @Nullable String problem(@Nullable String name) {
        if (name == null || name.isEmpty()) {
            return "a breaker name must not be empty";
        }
        if (!name.equals(name.strip())) {
            return "the breaker name '" + name + "' starts or ends with a blank (it would be a breaker of its own,"
                    + " apart from '" + name.strip() + "')";
        }
        @Nullable String route = RESERVED.get(name);
        if (route != null) {
            return "the breaker name '" + name + "' is taken by the breakers endpoint: /actuator/breakers/" + name
                    + " is the operators' " + route + ", so a breaker of that name could not be read there";
        }
        if (name.equals(".") || name.equals("..")) {
            return "the breaker name '" + name + "' cannot be written in a URL path";
        }
        for (int i = 0; i < name.length(); ) {
            int c = name.codePointAt(i);
            if (!Character.isLetterOrDigit(c) && c != '-' && c != '_' && c != '.') {
                return "the breaker name '" + name + "' holds '" + new String(Character.toChars(c))
                        + "', which cannot be written in one segment of a URL path (/actuator/breakers/{name})";
            }
            i += Character.charCount(c);
        }
        return null;
    }

    /**
     * What Spring Boot keeps of a map key written without brackets: ASCII letters, digits, {@code -} and
     * {@code _} ({@code my breaker} becomes {@code mybreaker}, {@code zahlung-ü} becomes {@code zahlung-}).
     * Keys that differ only in case are, besides, taken as one.
     */
    public static String unbracketed(String name) {
        StringBuilder kept = new StringBuilder();
        for (char c : name.toCharArray()) {
            if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_') {
                kept.append(c);
            }
        }
        return kept.toString();
    }

    /** Whether two names are one key to Spring Boot when written without brackets. */
    public static boolean sameUnbracketed(String a, String b) {
        return unbracketed(a).toLowerCase(Locale.ROOT).equals(unbracketed(b).toLowerCase(Locale.ROOT));
    }

    /** The name as a key under {@code breakers.instances}: as it is when binding keeps it, else in brackets. */
    public static String propertyKey(String name) {
        return unbracketed(name).equals(name) && !name.isEmpty() ? name : "[" + name + "]";
    }
}
