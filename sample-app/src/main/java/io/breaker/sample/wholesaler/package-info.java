/**
 * The HTTP client of the wholesaler, the call the breaker protects.
 */
package io.breaker.sample.wholesaler;
