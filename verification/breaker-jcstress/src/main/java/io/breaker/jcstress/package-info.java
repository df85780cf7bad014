/**
 * jcstress tests of the state machine's races through the public API, with the clocks and logs they share.
 * Nothing is null unless marked {@code @Nullable}.
 */
@NullMarked
package io.breaker.jcstress;

import org.jspecify.annotations.NullMarked;
