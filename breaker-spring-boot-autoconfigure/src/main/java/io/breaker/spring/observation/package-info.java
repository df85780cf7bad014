/**
 * Micrometer Observations of protected calls ({@code breaker.call}), of their fallbacks
 * ({@code breaker.fallback}) and of state transitions ({@code breaker.transition}), made only when the
 * application has an {@code ObservationRegistry} that is not the no-op one. Applications may replace
 * the names and keys with a {@link io.breaker.spring.observation.BreakerObservationConvention} bean; the
 * other classes are internal. Nothing is null unless marked {@code @Nullable}.
 */
@NullMarked
package io.breaker.spring.observation;

import org.jspecify.annotations.NullMarked;
