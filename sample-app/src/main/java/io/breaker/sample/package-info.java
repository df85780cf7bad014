/**
 * The sample bookshop: an application whose delivery-time answers go through a breaker.
 */
package io.breaker.sample;
