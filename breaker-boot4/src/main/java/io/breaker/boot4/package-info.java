/**
 * What only Spring Boot 4 needs: the check that the application runs Boot 4 (registered by this line's
 * starter). Internal to the starter. Nothing is null unless marked {@code @Nullable}.
 */
@NullMarked
package io.breaker.boot4;

import org.jspecify.annotations.NullMarked;
