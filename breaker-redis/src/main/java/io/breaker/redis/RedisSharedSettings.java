package io.breaker.redis;

import io.breaker.BreakerConfig;
import io.breaker.spring.actuate.SharedSettings;
import org.jspecify.annotations.Nullable;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Settings changed at runtime, shared through Redis: one hash per breaker,
 * {@code {breaker:<name>}:settings} (in the breaker's Cluster slot), with a version raised by every
 * change. Publishing writes it (publish-settings.lua); every instance reads it after each refresh of
 * the breaker's shared state that Redis answered (one small read per breaker and cache period, on the
 * store's command pool), and hands a newer version to the starter, which applies it. So a change
 * reaches every instance that has calls within one {@code state-cache-ttl} (plus one round trip).
 */
public final class RedisSharedSettings implements SharedSettings {

    private static final String PROPERTY = "p:";

    private final RedisStateStore store;
    /** The newest version seen (or published) per breaker. */
    private final Map<String, Long> seen = new ConcurrentHashMap<>();

    private volatile @Nullable Listener listener;

    public RedisSharedSettings(RedisStateStore store) {
        this.store = Objects.requireNonNull(store, "store");
        store.afterRefresh(this::check);
    }

    @Override
    public long publish(String breaker, Map<String, String> overrides, @Nullable String principal) {
        List<String> args = new ArrayList<>();
        args.add(principal == null ? "" : principal);
        overrides.forEach((property, value) -> {
            args.add(property);
            args.add(value);
        });
        Long version = store.callWithin(
                redis -> redis.execute(store.scripts().publishSettings, List.of(key(breaker)), args.toArray()));
        if (version == null) {
            return -1;
        }
        seen.merge(breaker, version, Math::max);
        return version;
    }

    /** The breaker's keys must outlive its wait plus its probe lease, as at start-up. */
    @Override
    public @Nullable String refusal(String breaker, BreakerConfig config) {
        try {
            store.getSettings().requireKeyExpiryCovers(breaker, config);
            return null;
        } catch (InvalidStorePropertyException tooShort) {
            return tooShort.getMessage();
        }
    }

    @Override
    public void onChange(Listener listener) {
        this.listener = Objects.requireNonNull(listener, "listener");
    }

    /** After a refresh of {@code breaker} that Redis answered, on a command thread. */
    void check(String breaker) {
        Listener target = listener;
        if (target == null) {
            return; // nobody applies settings yet: the next refresh looks again
        }
        Map<Object, Object> hash = store.callWithin(redis -> redis.opsForHash().entries(key(breaker)));
        if (hash == null || hash.isEmpty()) {
            return;
        }
        long version = Long.parseLong(String.valueOf(hash.get("version")));
        Long known = seen.get(breaker);
        if (known != null && version <= known) {
            return; // seen already, or Redis lost newer settings (the instances keep theirs)
        }
        seen.put(breaker, version);
        Map<String, String> overrides = new LinkedHashMap<>();
        hash.forEach((field, value) -> {
            if (String.valueOf(field).startsWith(PROPERTY)) {
                overrides.put(String.valueOf(field).substring(PROPERTY.length()), String.valueOf(value));
            }
        });
        Object principal = hash.get("principal");
        target.changed(breaker, version, overrides, principal == null ? null : String.valueOf(principal));
    }

    private static String key(String breaker) {
        return "{breaker:" + breaker + "}:settings";
    }
}
