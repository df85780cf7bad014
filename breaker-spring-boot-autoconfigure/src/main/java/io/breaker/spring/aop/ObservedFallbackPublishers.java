package io.breaker.spring.aop;

import io.micrometer.observation.Observation;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** A fallback's Mono or Flux that stops its observation when done. Loaded only with reactor-core. */
final class ObservedFallbackPublishers {

    private ObservedFallbackPublishers() {}

    /** {@code answer} stopping {@code observation} when it ends, or {@code null} if it is no Mono or Flux. */
    static @Nullable Object untilDone(@Nullable Object answer, Observation observation) {
        if (answer instanceof Mono<?> mono) {
            return mono.doOnError(observation::error).doFinally(signal -> observation.stop());
        }
        if (answer instanceof Flux<?> flux) {
            return flux.doOnError(observation::error).doFinally(signal -> observation.stop());
        }
        return null;
    }
}
