package io.breaker.spring.actuate;

/**
 * The store through which a breaker shares its state with the other instances, as this instance
 * sees it now.
 *
 * @param type        the store, for example {@code redis}
 * @param reachable   whether the store answers this instance
 * @param actingAlone whether this instance decides on its own calls only while the store cannot be
 *                    reached (its breakers trip and probe without the fleet)
 * @param failureMode what the instance does while the store cannot be reached, as written in its
 *                    settings (for Redis: {@code protect-locally} or {@code reject})
 */
public record StoreDescriptor(String type, boolean reachable, boolean actingAlone, String failureMode) {}
