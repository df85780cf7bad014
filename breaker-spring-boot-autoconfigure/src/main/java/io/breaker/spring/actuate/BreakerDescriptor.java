package io.breaker.spring.actuate;

import io.breaker.State;
import io.breaker.WaitReason;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.OperationResponseBody;

import java.time.Instant;
import java.util.List;

/**
 * One breaker as the {@code breakers} endpoint shows it. Rates are percentages, or {@code -1} while
 * the window holds fewer calls than {@code minimumNumberOfCalls}. Times are {@link Instant}s, which
 * the actuator's own serializer writes as ISO-8601 ({@code 2026-11-29T17:08:07.588Z}) whatever the
 * application's Jackson settings.
 *
 * @param name            the breaker's name
 * @param state           {@code CLOSED}, {@code OPEN}, {@code HALF_OPEN}, {@code FORCED_OPEN} or {@code FORCED_CLOSED}
 * @param shared          whether the breaker shares its state with other instances through a store
 * @param store           the store a shared breaker goes through, and whether it is reachable; {@code null}
 *                        for a breaker kept in memory
 * @param fleet           for a shared breaker, its state in the store as this instance last heard it, or
 *                        {@code null} (kept in memory, or no answer from the store yet)
 * @param stateSince      when the breaker entered its current state
 * @param failureRate     failed calls in the window, in percent, or -1
 * @param slowCallRate    slow calls in the window, in percent, or -1 (also when slow-call detection is off)
 * @param callsInWindow   calls in the window (in OPEN and HALF_OPEN: the window that tripped)
 * @param failedCalls     failed calls in the window
 * @param slowCalls       slow calls in the window
 * @param rejectedCalls   calls rejected since the breaker was created
 * @param openedAt        when the breaker tripped, while OPEN or HALF_OPEN; otherwise {@code null}
 * @param nextProbeAt     while OPEN, when the next call becomes a probe; otherwise {@code null}
 * @param waitReason      while OPEN, why {@code nextProbeAt} is that far: {@code CONFIGURED} (the wait in open
 *                        state, less its jitter), {@code RETRY_AFTER} (the failure that opened it asked for
 *                        longer) or {@code BACKOFF} (probes failed since the trip, and each multiplied the
 *                        wait by {@code wait-multiplier}); otherwise {@code null}
 * @param lastFailureType class name of the last exception recorded as a failure, or {@code null}
 * @param faults          the faults injected into its calls (fault injection is on), or {@code null} when none are
 * @param config          the effective settings
 * @param transitions     the last state changes, newest first
 * @param settingsChanges the last changes of its settings at runtime, newest first
 * @param activity        its recent history for the console (see {@link BreakerActivity}), or {@code null}
 *                        when the endpoint keeps none
 */
public record BreakerDescriptor(
        String name,
        State state,
        boolean shared,
        @Nullable StoreDescriptor store,
        @Nullable FleetDescriptor fleet,
        Instant stateSince,
        float failureRate,
        float slowCallRate,
        int callsInWindow,
        int failedCalls,
        int slowCalls,
        long rejectedCalls,
        @Nullable Instant openedAt,
        @Nullable Instant nextProbeAt,
        @Nullable WaitReason waitReason,
        @Nullable String lastFailureType,
        @Nullable FaultsDescriptor faults,
        BreakerConfigDescriptor config,
        List<TransitionDescriptor> transitions,
        List<SettingsChangeDescriptor> settingsChanges,
        @Nullable ActivityDescriptor activity)
        implements OperationResponseBody {}
