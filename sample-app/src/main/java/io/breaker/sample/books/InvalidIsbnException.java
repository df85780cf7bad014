package io.breaker.sample.books;

import org.jspecify.annotations.Nullable;

/** Thrown for text that is not a valid ISBN; the message quotes the text and says what is wrong. */
public class InvalidIsbnException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** The characters of the input a message quotes; a longer input is cut there and its length given. */
    static final int QUOTED_CHARACTERS = 40;

    /** The input as the message quotes it, without the quotes and the length. */
    private final String shown;

    public InvalidIsbnException(@Nullable String input, String reason) {
        super(quoted(input) + " is not a valid ISBN: " + reason);
        this.shown = shown(input);
    }

    /**
     * The input as the message quotes it: cut after {@link #QUOTED_CHARACTERS} characters, with
     * {@code ...} after the cut; {@code null} as {@code "null"}. A problem that names the request shows
     * the input so, as the message does, and never the whole of a long one.
     */
    public String shownInput() {
        return shown;
    }

    /** The input in quotes, cut after {@link #QUOTED_CHARACTERS} characters (code points, never half of one). */
    private static String quoted(@Nullable String input) {
        if (input == null) {
            return "'null'";
        }
        int characters = input.codePointCount(0, input.length());
        if (characters <= QUOTED_CHARACTERS) {
            return "'" + input + "'";
        }
        return "'" + shown(input) + "' (" + characters + " characters)";
    }

    private static String shown(@Nullable String input) {
        if (input == null) {
            return "null";
        }
        if (input.codePointCount(0, input.length()) <= QUOTED_CHARACTERS) {
            return input;
        }
        return input.substring(0, input.offsetByCodePoints(0, QUOTED_CHARACTERS)) + "...";
    }
}
