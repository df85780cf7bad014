package io.breaker.sample.books;

/** Raised for input that is not an ISBN-10 or ISBN-13; the bookshop answers it with a 400. */
public class InvalidIsbnException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public InvalidIsbnException(String input, String reason) {
        super("'" + input + "' is not a valid ISBN: " + reason);
    }
}
