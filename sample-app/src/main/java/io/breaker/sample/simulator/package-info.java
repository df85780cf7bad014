/**
 * The simulated wholesaler on a second port, switched at runtime: healthy, slow, failing, throttling or down.
 */
package io.breaker.sample.simulator;
