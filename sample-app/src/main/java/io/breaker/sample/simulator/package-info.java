/**
 * The simulated wholesaler on a second port, switched at runtime: healthy, slow, failing, throttling or down.
 * Nothing is null unless marked {@code @Nullable}.
 */
@NullMarked
package io.breaker.sample.simulator;

import org.jspecify.annotations.NullMarked;
