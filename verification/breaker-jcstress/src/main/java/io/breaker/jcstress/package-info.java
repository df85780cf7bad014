/**
 * jcstress tests of the state machine's races through the public API, with the clocks and logs they share.
 */
package io.breaker.jcstress;
