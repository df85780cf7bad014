package io.breaker.sample.books;

import org.jspecify.annotations.Nullable;

/** Raised for input that is not an ISBN-10 or ISBN-13; the bookshop answers it with a 400. */
public class InvalidIsbnException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public InvalidIsbnException(@Nullable String input, String reason) {
        super("'" + input + "' is not a valid ISBN: " + reason);
    }
}
