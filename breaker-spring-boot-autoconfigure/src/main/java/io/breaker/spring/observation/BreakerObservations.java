package io.breaker.spring.observation;

import io.breaker.BreakerListener;
import io.breaker.CallOutcome;
import io.breaker.CircuitBreaker;
import io.breaker.Transition;
import io.breaker.spring.observation.BreakerObservationDocumentation.Keys;
import io.breaker.spring.observation.BreakerObservationDocumentation.Outcomes;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;

import java.util.Locale;

/**
 * Makes the breakers' observations in one {@link ObservationRegistry}, and, added to every breaker as
 * its listener, completes them: a recorded outcome or a rejection goes to the call's observation when
 * it is the current one on the recording thread (the aspect makes sure it is); a transition becomes an
 * event ({@code breaker.transition}, contextual name {@code breaker <name> <FROM> -> <TO>}) on the
 * current observation, whatever it is, or, when there is none, an observation of its own that carries
 * the same event. Exists only for a registry that is not the no-op one.
 */
public final class BreakerObservations implements BreakerListener {

    /** The Reactor context key of the current observation (Micrometer's context-propagation key). */
    public static final String REACTOR_CONTEXT_KEY = "micrometer.observation";

    private final ObservationRegistry registry;
    private final @Nullable BreakerObservationConvention convention;

    /**
     * @param registry   where observations go; not the no-op one
     * @param convention replaces the default names and keys of {@code breaker.call}, or {@code null}
     */
    public BreakerObservations(ObservationRegistry registry, @Nullable BreakerObservationConvention convention) {
        this.registry = registry;
        this.convention = convention;
    }

    /**
     * This, or {@code null} when the registry records nothing ({@link ObservationRegistry#isNoop()}): then no
     * call is observed and no breaker listens.
     */
    public @Nullable BreakerObservations ifRecording() {
        return registry.isNoop() ? null : this;
    }

    /** The registry. */
    public ObservationRegistry registry() {
        return registry;
    }

    /**
     * Starts the observation of one call of {@code breaker}, its state read now.
     *
     * @param parent the parent, or {@code null} for the registry's current observation
     */
    public Observation startCall(CircuitBreaker breaker, @Nullable Observation parent) {
        BreakerCallContext context = new BreakerCallContext(breaker.getName(), breaker.getState());
        Observation observation = Observation.createNotStarted(
                convention, DefaultBreakerObservationConvention.INSTANCE, () -> context, registry);
        if (parent != null) {
            observation.parentObservation(parent);
        }
        return observation.start();
    }

    /** Starts the observation of a fallback of {@code breakerName}, a child of the current observation. */
    public Observation startFallback(String breakerName) {
        return Observation.createNotStarted(BreakerObservationDocumentation.FALLBACK_NAME, registry)
                .contextualName("breaker " + breakerName + " fallback")
                .lowCardinalityKeyValue(Keys.NAME.withValue(breakerName))
                .start();
    }

    /**
     * Whether {@code observation} is a call's observation that has no outcome yet, so that what
     * stops it may still set one.
     */
    public static boolean lacksOutcome(Observation observation) {
        return observation.getContext() instanceof BreakerCallContext call && call.getOutcome() == null;
    }

    /**
     * Sets the outcome of a call's observation that ended on {@code error} when the breaker's own
     * record did not reach it (a call given up by its timeout on the timer's thread): a failure when
     * the breaker counts {@code error} as one, else ignored.
     */
    public static void outcomeFromError(Observation observation, CircuitBreaker breaker, Throwable error) {
        if (observation.getContext() instanceof BreakerCallContext call) {
            call.outcome(breaker.getConfig().isFailure(error) ? Outcomes.FAILURE : Outcomes.IGNORED);
        }
    }

    @Override
    public void onCallRecorded(CircuitBreaker breaker, CallOutcome outcome, long durationNanos) {
        BreakerCallContext call = currentCall(breaker);
        if (call != null) {
            call.outcome(BreakerCallContext.outcomeOf(outcome));
        }
    }

    @Override
    public void onCallRejected(CircuitBreaker breaker) {
        BreakerCallContext call = currentCall(breaker);
        if (call != null) {
            call.outcome(Outcomes.REJECTED);
        }
    }

    /** Durations are not needed: the observation times the call itself. */
    @Override
    public boolean wantsCallDurations() {
        return false;
    }

    @Override
    public void onStateTransition(Transition transition) {
        Observation.Event event = Observation.Event.of(
                BreakerObservationDocumentation.TRANSITION_NAME,
                "breaker " + transition.breaker() + " " + transition.from() + " -> " + transition.to());
        Observation current = registry.getCurrentObservation();
        if (current != null) {
            current.event(event);
            return;
        }
        Observation own = Observation.createNotStarted(BreakerObservationDocumentation.TRANSITION_NAME, registry)
                .contextualName(event.getContextualName())
                .lowCardinalityKeyValue(Keys.NAME.withValue(transition.breaker()))
                .lowCardinalityKeyValue(Keys.STATE.withValue(lower(transition.to())))
                .lowCardinalityKeyValue(Keys.FROM.withValue(lower(transition.from())))
                .start();
        own.event(event);
        own.stop();
    }

    private @Nullable BreakerCallContext currentCall(CircuitBreaker breaker) {
        Observation current = registry.getCurrentObservation();
        return current != null
                        && current.getContext() instanceof BreakerCallContext call
                        && call.getBreakerName().equals(breaker.getName())
                ? call
                : null;
    }

    private static String lower(Enum<?> state) {
        return state.name().toLowerCase(Locale.ROOT);
    }
}
