package io.breaker.spring.actuate;

import org.springframework.boot.actuate.endpoint.OperationResponseBody;

/**
 * The answer (409) to a change of a shared breaker's settings made on a view of the fleet's settings
 * that was no longer current: nothing changed, and {@code current} shows the fleet's settings, which
 * the instance applies from then on (so the same change sent again is made on them).
 *
 * @param status  409
 * @param error   {@code Conflict}
 * @param message what happened and what to do
 * @param current the breaker's settings as the instance now applies them, with the fleet's version
 */
public record StaleDescriptor(int status, String error, String message, SettingsDescriptor current)
        implements OperationResponseBody {}
