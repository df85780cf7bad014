package io.breaker.spring.actuate;

/**
 * Text from outside (a principal, a value or a message about one, settings read from a store) made
 * safe for one log line: a line break or any other control character is written as an escape
 * ({@code \r}, {@code \n}, {@code \t}, {@code \\u0007}), and a backslash as {@code \\}, so that no such
 * text can end the line it is on or start another that looks like ours; and cut after
 * {@link #MAX_LENGTH} characters, so that no such text makes a line of megabytes.
 */
final class LogText {

    /** The most characters of one text a log line repeats; a longer one is cut and says how long it was. */
    static final int MAX_LENGTH = 1_000;

    private LogText() {}

    /**
     * {@code text} with control characters escaped, its first {@link #MAX_LENGTH} characters only when
     * it is longer (a value read from a store has no bound of its own); {@code "none"} for {@code null}.
     */
    static String of(Object text) {
        if (text == null) {
            return "none";
        }
        String whole = text.toString();
        if (whole.length() > MAX_LENGTH) {
            int end = Character.isHighSurrogate(whole.charAt(MAX_LENGTH - 1)) ? MAX_LENGTH - 1 : MAX_LENGTH;
            return of(whole.substring(0, end)) + "... (cut: " + whole.length() + " characters)";
        }
        String value = whole;
        StringBuilder safe = null;
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            String escape = escape(c);
            if (escape != null && safe == null) {
                safe = new StringBuilder(value.length() + 16).append(value, 0, i);
            }
            if (safe != null) {
                if (escape != null) {
                    safe.append(escape);
                } else {
                    safe.append(c);
                }
            }
        }
        return safe == null ? value : safe.toString();
    }

    private static String escape(char c) {
        switch (c) {
            case '\\':
                return "\\\\";
            case '\r':
                return "\\r";
            case '\n':
                return "\\n";
            case '\t':
                return "\\t";
            default:
                if (Character.isISOControl(c) || c == '\u2028' || c == '\u2029' || c == '\u0085') {
                    return String.format("\\u%04x", (int) c);
                }
                return null;
        }
    }
}
