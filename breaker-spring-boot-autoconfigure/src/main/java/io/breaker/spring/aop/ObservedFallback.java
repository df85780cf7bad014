package io.breaker.spring.aop;

import io.breaker.spring.observation.BreakerObservations;
import io.micrometer.observation.Observation;
import org.jspecify.annotations.Nullable;

import java.util.concurrent.CompletionStage;

/**
 * A fallback whose work is an observation ({@code breaker.fallback}), a child of the call it answers:
 * from its invocation to the end of what it returns, a {@code CompletionStage}'s completion or a
 * {@code Mono}'s or {@code Flux}'s termination or cancel ({@link ObservedFallbackPublishers}).
 */
final class ObservedFallback extends Fallback {

    private static final boolean REACTOR_PRESENT = org.springframework.util.ClassUtils.isPresent(
            "reactor.core.publisher.Mono", ObservedFallback.class.getClassLoader());

    private final BreakerObservations observations;
    private final String breakerName;

    ObservedFallback(Fallback overloads, BreakerObservations observations, String breakerName) {
        super(overloads);
        this.observations = observations;
        this.breakerName = breakerName;
    }

    @Override
    @Nullable
    Object invoke(@Nullable Object target, @Nullable Object[] arguments, Throwable error) throws Throwable {
        if (select(error) == null) {
            throw error;
        }
        Observation observation = observations.startFallback(breakerName);
        Object answer;
        try (Observation.Scope scope = observation.openScope()) {
            answer = super.invoke(target, arguments, error);
        } catch (Throwable thrown) {
            observation.error(thrown);
            observation.stop();
            throw thrown;
        }
        return untilDone(answer, observation);
    }

    @Override
    @Nullable
    Object invokeWithoutException(@Nullable Object target, @Nullable Object[] arguments) throws Throwable {
        Observation observation = observations.startFallback(breakerName);
        Object answer;
        try (Observation.Scope scope = observation.openScope()) {
            answer = super.invokeWithoutException(target, arguments);
        } catch (Throwable thrown) {
            observation.error(thrown);
            observation.stop();
            throw thrown;
        }
        return untilDone(answer, observation);
    }

    /** {@code answer}, with the observation stopped when it is done (now, for a plain value). */
    private static @Nullable Object untilDone(@Nullable Object answer, Observation observation) {
        if (answer instanceof CompletionStage<?> stage) {
            stage.whenComplete((value, error) -> {
                if (error != null) {
                    observation.error(ObservedCall.unwrap(error));
                }
                observation.stop();
            });
            return answer;
        }
        if (REACTOR_PRESENT) {
            Object observed = ObservedFallbackPublishers.untilDone(answer, observation);
            if (observed != null) {
                return observed;
            }
        }
        observation.stop();
        return answer;
    }
}
