/**
 * What only Spring Boot 3 needs: the check that the application runs Boot 3 (registered by this line's
 * starter). Internal to the starter. Nothing is null unless marked {@code @Nullable}.
 */
@NullMarked
package io.breaker.boot3;

import org.jspecify.annotations.NullMarked;
