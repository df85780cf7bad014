/**
 * The test auto-configuration that {@link io.breaker.test.AutoConfigureBreakers} imports; internal.
 */
@NullMarked
package io.breaker.test.autoconfigure;

import org.jspecify.annotations.NullMarked;
