package io.breaker.sample.wholesaler;

import io.breaker.sample.books.Isbn;

/**
 * The wholesaler answered 404: it does not know the book. A business answer, not an outage: the
 * breaker ignores it ({@code breakers.instances.wholesaler.ignore-exceptions}), no fallback hides it,
 * and the bookshop answers 404 too.
 */
public class UnknownBookException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final transient Isbn isbn;

    public UnknownBookException(Isbn isbn) {
        super("The wholesaler does not know the book " + isbn);
        this.isbn = isbn;
    }

    public Isbn getIsbn() {
        return isbn;
    }
}
