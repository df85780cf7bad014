/**
 * The auto-configuration of this line's health contributors. Internal to the starter; an application may
 * exclude them by class name. Nothing is null unless marked {@code @Nullable}.
 */
@NullMarked
package io.breaker.boot3.autoconfigure;

import org.jspecify.annotations.NullMarked;
