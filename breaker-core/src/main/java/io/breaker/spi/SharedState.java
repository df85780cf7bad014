package io.breaker.spi;

import io.breaker.BreakerConfig;
import io.breaker.CallOutcome;
import io.breaker.CircuitBreaker;
import io.breaker.NanoClock;
import io.breaker.State;
import io.breaker.TransitionCause;
import io.breaker.WaitReason;
import org.jspecify.annotations.Nullable;

import java.util.function.Consumer;

/**
 * One breaker's link to a state shared by several instances (for example through Redis). A breaker
 * created with a {@link StateStore} that returned a link for it keeps its own in-memory state machine
 * as a local cache of the fleet's state, and asks the link at each transition:
 * <ul>
 * <li>a successful call in CLOSED is handed to {@link #recordSuccess()}, on the call path: it must
 *     only count (a store sends successes in batches), and may start a refresh it does not wait for;</li>
 * <li>any other call on the breaker (recorded in FORCED_CLOSED, or rejected in OPEN, HALF_OPEN or
 *     FORCED_OPEN) calls {@link #touch()}: a store without a timer refreshes its cache from
 *     calls, so a breaker nobody calls costs nothing;</li>
 * <li>a failed or slow call in CLOSED is reported with {@link #recordFailure}, and the answer is
 *     adopted at once, so an instance learns of a fleet trip from its own next failure;</li>
 * <li>the local window's own verdict trips the breaker only while {@link #allowsLocalTrip()};</li>
 * <li>OPEN to HALF_OPEN, HALF_OPEN to OPEN or CLOSED, and operator changes go through
 *     {@link #tryAcquireProbe()}, {@link #probeFailed()}, {@link #probesSucceeded()} and
 *     {@link #operatorSets(State)}.</li>
 * </ul>
 * A method returning {@code null} means "no fleet answer" (the store cannot be reached and fails
 * open): the breaker then does what an in-memory breaker does. Implementations never throw and never
 * block longer than their own short timeout.
 *
 * <p>A breaker without a link (the default) never calls any of this: its only cost is a null check of
 * a final field.
 */
public interface SharedState {

    /**
     * Called once, right after the breaker is built: the store calls {@code adopter} whenever it
     * learns the fleet's state on its own (for example when its cache is refreshed); the breaker then
     * moves its local state to match, reporting the transition to its listeners as usual.
     *
     * @param clock the breaker's clock (the one its tests move); a store times its refreshes with it
     */
    void connect(Consumer<SharedVerdict> adopter, NanoClock clock);

    /**
     * A call succeeded in CLOSED. On the call path: count it; a store may start a refresh here (see
     * {@link #touch()}) but must not wait for the store.
     */
    void recordSuccess();

    /**
     * A call on the breaker that is not reported otherwise: recorded in FORCED_CLOSED, or rejected in
     * OPEN, HALF_OPEN or FORCED_OPEN. On the call path: a store whose cached state is due for a
     * refresh may hand the refresh to its own bounded pool, but must not wait for it (the answer
     * comes back through the adopter given to {@link #connect}). By default it does nothing.
     */
    default void touch() {}

    /**
     * A call failed or was slow in CLOSED ({@link CallOutcome#FAILURE}, {@link CallOutcome#SLOW_FAILURE}
     * or {@link CallOutcome#SLOW_SUCCESS}); returns the fleet's state after counting it, or {@code null}.
     */
    @Nullable
    SharedVerdict recordFailure(CallOutcome outcome);

    /**
     * {@link #recordFailure(CallOutcome)}, with the wait this instance would open the breaker for if
     * this failure trips the fleet (its Retry-After and jitter included) and why: a store that decides
     * the trip itself opens the fleet for that long. By default the wait is not passed on.
     */
    default @Nullable SharedVerdict recordFailure(CallOutcome outcome, long waitNanos, WaitReason waitReason) {
        return recordFailure(outcome);
    }

    /** Whether the local window's verdict may trip the breaker now (typically: the store is unreachable). */
    boolean allowsLocalTrip();

    /**
     * The local window tripped the breaker on its own (while {@link #allowsLocalTrip()}), for
     * {@code cause}, opening it for {@code waitNanos} because of {@code waitReason}. The fleet did not
     * hear of it: a store that answers again with the state it had before should keep this trip (and
     * may put it to the fleet) rather than close the breaker on that older state. By default nothing.
     */
    default void trippedAlone(TransitionCause cause, long waitNanos, WaitReason waitReason) {}

    /**
     * The local wait elapsed: asks for the fleet's probe lease. {@link State#HALF_OPEN} means this
     * instance won it; any other state is the fleet's state to adopt; {@code null} means probe locally.
     */
    @Nullable
    SharedVerdict tryAcquireProbe();

    /** A probe failed: reopen for the fleet. Returns the fleet's state, or {@code null}. */
    @Nullable
    SharedVerdict probeFailed();

    /**
     * {@link #probeFailed()}, with the fleet's count of failed probes once this one is counted and
     * the wait this instance computed for it (the backoff, its jitter and the failure's Retry-After)
     * and why: a store reopens the fleet for that long. By default they are not passed on.
     */
    default @Nullable SharedVerdict probeFailed(int failedProbes, long waitNanos, WaitReason waitReason) {
        return probeFailed();
    }

    /** Enough probes succeeded: close for the fleet. Returns the fleet's state, or {@code null}. */
    @Nullable
    SharedVerdict probesSucceeded();

    /**
     * An operator sets {@link State#FORCED_OPEN}, {@link State#FORCED_CLOSED} or {@link State#CLOSED}
     * (back to automatic) through this instance. Returns the fleet's state, or {@code null} when only
     * the local breaker can be changed now.
     */
    @Nullable
    SharedVerdict operatorSets(State target);

    /**
     * The breaker's settings changed while it runs ({@link CircuitBreaker#reconfigure}): the store
     * uses the new ones from now on (for its shared window and timers). Not on the call path. By
     * default it does nothing.
     */
    default void reconfigure(BreakerConfig config) {}
}
