package io.breaker.spring.actuate;

import io.breaker.State;

import java.time.Instant;

/**
 * One sample of a breaker's history: its state, its window's rates and its call totals at one read
 * of the endpoint. The totals only grow; the console plots the difference between two samples.
 *
 * @param at           when the sample was taken (the registry's wall clock)
 * @param state        the breaker's state then
 * @param failureRate  the window's failure rate then, in percent, or -1
 * @param slowCallRate the window's slow-call rate then, in percent, or -1
 * @param succeeded    calls that succeeded so far, or -1 when no meters count them
 * @param failed       calls that failed so far, or -1 when no meters count them
 * @param slow         slow calls so far (slow failures count as failed), or -1 when no meters count them
 * @param ignored      calls with an ignored exception so far, or -1 when no meters count them
 * @param rejected     calls rejected so far
 */
public record ActivitySample(
        Instant at,
        State state,
        float failureRate,
        float slowCallRate,
        long succeeded,
        long failed,
        long slow,
        long ignored,
        long rejected) {}
