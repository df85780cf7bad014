package io.breaker.redis;

import io.breaker.BreakerConfig;
import io.breaker.spring.actuate.SharedSettings;
import org.jspecify.annotations.Nullable;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;

/**
 * Settings changed at runtime, shared through Redis: one hash per breaker,
 * {@code {breaker:<name>}:settings} (in the breaker's Cluster slot), with an epoch (a random id this
 * class chooses when the hash is created, so a Redis that lost the hash never hands out a used one
 * again) and a version raised by every change. A change is written by change-settings.lua, by
 * compare-and-set on the epoch and version the changing instance last saw; every instance reads the
 * hash after each refresh of the breaker's shared state that Redis answered (one small read per
 * breaker and cache period, on the store's command pool) and hands it to the starter, which applies
 * what is new. So a change reaches every instance that has calls within one {@code state-cache-ttl}
 * (plus one round trip).
 */
public final class RedisSharedSettings implements SharedSettings {

    private static final String PROPERTY = "p:";

    private final RedisStateStore store;

    private volatile @Nullable Listener listener;

    public RedisSharedSettings(RedisStateStore store) {
        this.store = Objects.requireNonNull(store, "store");
        store.afterRefresh(this::check);
    }

    @Override
    public Outcome change(String breaker, Fleet base, Map<String, String> changes, String principal) {
        List<String> args = new ArrayList<>();
        args.add(UUID.randomUUID().toString());
        args.add(base.epoch());
        args.add(Long.toString(base.version()));
        args.add(principal == null ? "" : principal);
        args.add(Integer.toString(base.overrides().size()));
        base.overrides().forEach((property, value) -> {
            args.add(property);
            args.add(value);
        });
        changes.forEach((property, value) -> {
            args.add(property);
            args.add(value == null ? "d" : "s");
            args.add(value == null ? "" : value);
        });
        RedisStateStore.Attempt<List> attempt = store.attemptWithin(
                redis -> redis.execute(store.scripts().changeSettings, List.of(key(breaker)), args.toArray()));
        if (!attempt.sent()) {
            return new Outcome.Unreachable();
        }
        List<?> answer = attempt.value();
        if (answer == null || answer.isEmpty()) {
            return new Outcome.Unanswered();
        }
        Map<String, String> hash = new LinkedHashMap<>();
        for (int i = 1; i + 1 < answer.size(); i += 2) {
            hash.put(String.valueOf(answer.get(i)), String.valueOf(answer.get(i + 1)));
        }
        Fleet fleet = fleet(hash);
        return switch (String.valueOf(answer.get(0))) {
            case "applied" -> new Outcome.Applied(fleet);
            case "unchanged" -> new Outcome.Unchanged(fleet);
            default -> new Outcome.Stale(fleet);
        };
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
        long readAt = System.nanoTime();
        Map<Object, Object> hash = store.callWithin(redis -> redis.opsForHash().entries(key(breaker)));
        if (hash == null) {
            return; // no answer in time: the next refresh reads again
        }
        Map<String, String> fields = new LinkedHashMap<>();
        hash.forEach((field, value) -> fields.put(String.valueOf(field), String.valueOf(value)));
        target.seen(breaker, fleet(fields), readAt);
    }

    /**
     * The fleet's settings in a hash as Redis holds it; {@link Fleet#NONE} for no hash, or a hash
     * without an epoch or a version (not written by change-settings.lua, which replaces such a hash at
     * the next change).
     */
    static Fleet fleet(Map<String, String> hash) {
        String epoch = hash.get("epoch");
        if (epoch == null || epoch.isEmpty()) {
            return Fleet.NONE;
        }
        long version;
        try {
            version = Long.parseLong(hash.getOrDefault("version", ""));
        } catch (NumberFormatException notANumber) {
            return Fleet.NONE;
        }
        Map<String, String> overrides = new LinkedHashMap<>();
        hash.forEach((field, value) -> {
            if (field.startsWith(PROPERTY)) {
                overrides.put(field.substring(PROPERTY.length()), value);
            }
        });
        return new Fleet(epoch, version, overrides, hash.get("principal"));
    }

    private static String key(String breaker) {
        return "{breaker:" + breaker + "}:settings";
    }
}
