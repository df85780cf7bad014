/**
 * The bookshop's own API: the delivery time of a book by ISBN, live or from a fallback.
 */
package io.breaker.sample.books;
