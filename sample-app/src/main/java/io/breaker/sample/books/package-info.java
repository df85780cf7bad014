/**
 * The bookshop's own API: the delivery time of a book by ISBN, live or from a fallback.
 * Nothing is null unless marked {@code @Nullable}.
 */
@NullMarked
package io.breaker.sample.books;

import org.jspecify.annotations.NullMarked;
