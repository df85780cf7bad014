package io.breaker.spring.actuate;

import org.jspecify.annotations.Nullable;

import java.util.Comparator;
import java.util.List;

/**
 * What a change of settings at runtime is told about a key that is no setting it can change: what was
 * sent, the nearest setting that can (as start-up names the nearest key that is read), and every one
 * of them as {@code allowedKeys}.
 */
final class SettingKeys {

    /** The most characters of a sent key or value repeated in a message. */
    static final int SHOWN = 100;

    private SettingKeys() {}

    /** A 400 for {@code key}, sent with {@code value}, which is none of {@code changeable}. */
    static ErrorDescriptor unknown(String key, @Nullable Object value, List<String> changeable) {
        return ErrorDescriptor.unknownKey(
                "'" + ErrorDescriptor.cut(key, SHOWN) + "' (sent with the value "
                        + ErrorDescriptor.cut(String.valueOf(value), SHOWN)
                        + ") is no setting that can change at runtime; did you mean '" + nearest(key, changeable)
                        + "'? The settings that can change: " + String.join(", ", changeable),
                changeable);
    }

    /** A 400 for the one setting a running breaker keeps. */
    static ErrorDescriptor kept(String path, String why, List<String> changeable) {
        return ErrorDescriptor.unknownKey(
                path + " cannot change here: " + why + "." + " The settings that can change: "
                        + String.join(", ", changeable),
                changeable);
    }

    /** The one of {@code keys} fewest edits away from {@code typed} (the first such in their order). */
    static String nearest(String typed, List<String> keys) {
        String shown = typed.length() > SHOWN ? typed.substring(0, SHOWN) : typed;
        return keys.stream()
                .min(Comparator.comparingInt(key -> edits(shown, key)))
                .orElseThrow();
    }

    /** Insertions, deletions and substitutions of one character that turn {@code a} into {@code b}. */
    static int edits(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitute = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitute, Math.min(previous[j], current[j - 1]) + 1);
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }
}
