/**
 * Who may steer the breakers: reading is open, changes need the operator.
 */
package io.breaker.sample.security;
