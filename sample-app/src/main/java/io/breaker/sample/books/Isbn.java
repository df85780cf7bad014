package io.breaker.sample.books;

import org.jspecify.annotations.Nullable;

/**
 * A validated ISBN, held in its 13-digit form. ISBN-10s are converted (prefix 978, new check
 * digit), so the wholesaler always sees one spelling of a book.
 *
 * @param digits the 13 digits, without hyphens or spaces
 */
public record Isbn(String digits) {

    /** The ISBN-13 digits. Prefer {@link #parse(String)}, which also accepts ISBN-10 and hyphens. */
    public Isbn {
        if (digits == null || digits.length() != 13 || !isValidIsbn13(digits)) {
            throw new InvalidIsbnException(digits, "not a valid ISBN-13");
        }
    }

    /**
     * Parses an ISBN-10 or ISBN-13, ignoring hyphens and spaces.
     *
     * @throws InvalidIsbnException with a message saying what is wrong
     */
    public static Isbn parse(@Nullable String text) {
        if (text == null || text.isBlank()) {
            throw new InvalidIsbnException(text, "it is empty");
        }
        String compact = text.replace("-", "").replace(" ", "");
        // Characters, not UTF-16 units: a digit or an emoji outside the BMP is one character, two units.
        int length = compact.codePointCount(0, compact.length());
        if (compact.codePoints().anyMatch(c -> Character.isDigit(c) && !isAsciiDigit(c))) {
            // Character.isDigit also accepts fullwidth, Arabic-Indic or mathematical bold digits, which
            // c - '0' misreads.
            throw new InvalidIsbnException(text, "an ISBN is written with the digits 0-9");
        }
        if (length == 10) {
            if (!compact.substring(0, 9).chars().allMatch(Isbn::isAsciiDigit)
                    || !(isAsciiDigit(compact.charAt(9)) || compact.charAt(9) == 'X' || compact.charAt(9) == 'x')) {
                throw new InvalidIsbnException(text, "an ISBN-10 has 9 digits followed by a digit or X");
            }
            if (!isValidIsbn10(compact)) {
                throw new InvalidIsbnException(text, "its ISBN-10 check digit is wrong");
            }
            String twelve = "978" + compact.substring(0, 9);
            return new Isbn(twelve + isbn13CheckDigit(twelve));
        }
        if (length == 13) {
            if (!compact.chars().allMatch(Isbn::isAsciiDigit)) {
                throw new InvalidIsbnException(text, "an ISBN-13 has 13 digits");
            }
            if (!compact.startsWith("978") && !compact.startsWith("979")) {
                throw new InvalidIsbnException(text, "an ISBN-13 starts with 978 or 979");
            }
            if (!isValidIsbn13(compact)) {
                throw new InvalidIsbnException(text, "its ISBN-13 check digit is wrong");
            }
            return new Isbn(compact);
        }
        throw new InvalidIsbnException(
                text,
                "it has " + length + (length == 1 ? " character" : " characters")
                        + " without hyphens; an ISBN has 10 or 13");
    }

    @Override
    public String toString() {
        return digits;
    }

    private static boolean isAsciiDigit(int c) {
        return c >= '0' && c <= '9';
    }

    private static boolean isValidIsbn10(String tenChars) {
        int sum = 0;
        for (int i = 0; i < 10; i++) {
            char c = tenChars.charAt(i);
            int value = (c == 'X' || c == 'x') ? 10 : c - '0';
            sum += (10 - i) * value;
        }
        return sum % 11 == 0;
    }

    private static boolean isValidIsbn13(String digits) {
        return digits.chars().allMatch(Isbn::isAsciiDigit)
                && isbn13CheckDigit(digits.substring(0, 12)) == digits.charAt(12) - '0';
    }

    private static int isbn13CheckDigit(String twelveDigits) {
        int sum = 0;
        for (int i = 0; i < 12; i++) {
            sum += (twelveDigits.charAt(i) - '0') * (i % 2 == 0 ? 1 : 3);
        }
        return (10 - sum % 10) % 10;
    }
}
