package io.breaker.spring.actuate;

import io.breaker.BreakerListener;
import io.breaker.BreakerMetrics;
import io.breaker.BreakerRegistry;
import io.breaker.CircuitBreaker;
import io.breaker.State;
import io.breaker.Transition;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * What the {@code breakers} endpoint does, without Spring: describe breakers, and let an operator
 * force one open or closed or release it. A write never creates a breaker.
 *
 * <p>Every accepted change request is logged at WARN on {@value #LOGGER_NAME}, with the principal
 * who made it:
 * {@code breaker=wholesaler requested=OPEN from=CLOSED to=FORCED_OPEN changed=true principal=alice fleetChanged=none}.
 */
public final class BreakerOperations {

    /** The logger operator changes go to. */
    public static final String LOGGER_NAME = "io.breaker.operator";

    private static final Log LOGGER = LogFactory.getLog(LOGGER_NAME);

    private final BreakerRegistry registry;
    private final BreakerTransitionHistory history;
    /** The store that shares breakers with other instances, or null. */
    private final @Nullable SharedBreakers sharedBreakers;
    /** The console's history, or null. */
    private final @Nullable BreakerActivity activity;
    /**
     * Operator changes run one at a time: each one's transitions reach the listeners (the history among
     * them) before the next one starts, so concurrent requests cannot reorder the recent transitions.
     * Never taken on the call path.
     */
    private final Object changes = new Object();

    /**
     * @param registry the breakers to show and steer (the times shown are from its wall clock)
     * @param history  their recent transitions
     */
    public BreakerOperations(BreakerRegistry registry, BreakerTransitionHistory history) {
        this(registry, history, null);
    }

    /**
     * @param registry       the breakers to show and steer (the times shown are from its wall clock)
     * @param history        their recent transitions
     * @param sharedBreakers the store that shares breakers with other instances, or {@code null}
     */
    public BreakerOperations(
            BreakerRegistry registry, BreakerTransitionHistory history, @Nullable SharedBreakers sharedBreakers) {
        this(registry, history, sharedBreakers, null);
    }

    /**
     * @param registry       the breakers to show and steer (the times shown are from its wall clock)
     * @param history        their recent transitions
     * @param sharedBreakers the store that shares breakers with other instances, or {@code null}
     * @param activity       the console's history, which each description samples, or {@code null}
     */
    public BreakerOperations(
            BreakerRegistry registry,
            BreakerTransitionHistory history,
            @Nullable SharedBreakers sharedBreakers,
            @Nullable BreakerActivity activity) {
        this.registry = Objects.requireNonNull(registry, "registry");
        this.history = Objects.requireNonNull(history, "history");
        this.sharedBreakers = sharedBreakers;
        this.activity = activity;
    }

    /** Every breaker, sorted by name. */
    public BreakersDescriptor describeAll() {
        return new BreakersDescriptor(
                registry.all().stream().map(this::describe).toList());
    }

    /** The named breaker, or empty if there is none. */
    public Optional<BreakerDescriptor> describe(String name) {
        return registry.find(name).map(this::describe);
    }

    /**
     * Forces the named breaker OPEN or CLOSED, or releases it ({@code AUTO}).
     *
     * @param name      the breaker; an unknown name is refused, never created
     * @param requested {@code OPEN}, {@code CLOSED} or {@code AUTO} (any case); anything else is refused
     * @param principal the authenticated user asking, or {@code null}
     */
    public ChangeResult change(String name, @Nullable String requested, @Nullable String principal) {
        Optional<CircuitBreaker> found = registry.find(name);
        if (found.isEmpty()) {
            return new ChangeResult.Refused(ErrorDescriptor.notFound(name));
        }
        Optional<RequestedState> target = RequestedState.parse(requested);
        if (target.isEmpty()) {
            return new ChangeResult.Refused(ErrorDescriptor.badState(requested));
        }
        CircuitBreaker breaker = found.get();
        synchronized (changes) {
            OwnTransitions own = new OwnTransitions(Thread.currentThread());
            breaker.addListener(own);
            boolean changed;
            try {
                changed = history.forcedBy(name, principal, () -> switch (target.get()) {
                    case OPEN -> breaker.forceOpen();
                    case CLOSED -> breaker.forceClosed();
                    case AUTO -> breaker.release();
                });
            } finally {
                breaker.removeListener(own);
            }
            State before;
            State after;
            if (own.first != null) {
                before = own.first.from();
                after = own.last.to();
            } else {
                before = breaker.getState();
                after = before;
            }
            FleetChange fleetChanged =
                    breaker.isShared() && sharedBreakers != null ? sharedBreakers.lastOperatorChange(name) : null;
            LOGGER.warn("breaker=" + name + " requested=" + target.get() + " from=" + before + " to=" + after
                    + " changed=" + changed + " principal=" + LogText.of(principal)
                    + " fleetChanged=" + LogText.of(fleetChanged));
            return new ChangeResult.Applied(new StateChangeDescriptor(
                    name,
                    target.get(),
                    before,
                    after,
                    changed,
                    fleetChanged == null ? null : fleetChanged.shown(),
                    principal));
        }
    }

    /**
     * The transitions this request itself made, told to listeners on its own thread by the breaker: the
     * answer's {@code previousState} and {@code state} are theirs, never two reads with another
     * caller's transition in between. Added only for the length of one change.
     */
    private static final class OwnTransitions implements BreakerListener {

        private final Thread requester;
        private @Nullable Transition first;
        private @Nullable Transition last;

        OwnTransitions(Thread requester) {
            this.requester = requester;
        }

        @Override
        public void onStateTransition(Transition transition) {
            if (Thread.currentThread() == requester) {
                if (first == null) {
                    first = transition;
                }
                last = transition;
            }
        }

        @Override
        public boolean wantsCallDurations() {
            return false;
        }
    }

    private BreakerDescriptor describe(CircuitBreaker breaker) {
        State state = breaker.getState();
        BreakerMetrics metrics = breaker.getMetrics();
        Instant openedAt = breaker.getOpenedAt();
        // The trip time plus the wait, from one reading of the phase: the same at every read, also once due.
        Instant nextProbeAt = state == State.OPEN ? breaker.getNextProbeAt() : null;
        boolean shared = breaker.isShared();
        boolean inStore = shared && sharedBreakers != null;
        return new BreakerDescriptor(
                breaker.getName(),
                state,
                shared,
                inStore ? sharedBreakers.store() : null,
                inStore ? sharedBreakers.fleet(breaker.getName()) : null,
                breaker.getStateSince(),
                metrics.failureRate(),
                metrics.slowCallRate(),
                metrics.calls(),
                metrics.failedCalls(),
                metrics.slowCalls(),
                metrics.notPermittedCalls(),
                openedAt,
                nextProbeAt,
                breaker.getWaitReason(),
                breaker.getLastFailureType(),
                FaultsDescriptor.of(breaker.getConfig()),
                BreakerConfigDescriptor.of(breaker.getConfig()),
                history.recent(breaker.getName()),
                history.recentSettingsChanges(breaker.getName()),
                activity == null ? null : activity.read(breaker, state, metrics));
    }

    /** The outcome of a change request. */
    public sealed interface ChangeResult {

        /** The request was valid and carried out (it may have found the breaker already in that state). */
        record Applied(StateChangeDescriptor change) implements ChangeResult {}

        /** The request was refused: an unknown breaker (404) or a bad state (400). */
        record Refused(ErrorDescriptor error) implements ChangeResult {}
    }
}
