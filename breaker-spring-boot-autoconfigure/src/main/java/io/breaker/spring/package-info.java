/**
 * The Spring API of breaker: {@link io.breaker.spring.CircuitProtected}, the annotation applications put
 * on the methods a breaker protects, and the rules for breaker names. Public API.
 */
package io.breaker.spring;
