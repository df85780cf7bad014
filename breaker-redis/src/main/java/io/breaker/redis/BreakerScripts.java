package io.breaker.redis;

import io.breaker.spi.OutcomeBits;
import org.springframework.data.redis.core.script.DefaultRedisScript;
import org.springframework.data.redis.core.script.RedisScript;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The Lua scripts, loaded once from the classpath: one per shared transition, each one the outcome
 * bits of {@link OutcomeBits} (the same values the in-memory windows record), then common.lua, then
 * the script; and the one that changes settings at runtime.
 */
final class BreakerScripts {

    private static final String FOLDER = "/io/breaker/redis/lua/";

    final RedisScript<List> report;
    final RedisScript<List> acquireProbe;
    final RedisScript<List> probeFailed;
    final RedisScript<List> close;
    final RedisScript<List> force;
    final RedisScript<List> seed;
    /** Not a transition: changes settings at runtime for the fleet (see {@link RedisSharedSettings}). */
    final RedisScript<List> changeSettings;

    BreakerScripts() {
        String common = outcomeBits() + read("common.lua");
        report = script(common, "report.lua");
        acquireProbe = script(common, "acquire-probe.lua");
        probeFailed = script(common, "probe-failed.lua");
        close = script(common, "close.lua");
        force = script(common, "force.lua");
        seed = script(common, "seed.lua");
        changeSettings = new DefaultRedisScript<>(read("change-settings.lua"), List.class);
    }

    /** The Lua definition of the outcome bits, taken from the Java one. */
    static String outcomeBits() {
        return "local CALL, FAILED, SLOW = " + OutcomeBits.CALL + ", " + OutcomeBits.FAILED + ", " + OutcomeBits.SLOW
                + "\n";
    }

    private static RedisScript<List> script(String common, String file) {
        // Sent with EVALSHA (the SHA-1 is computed once here); Redis falls back to EVAL if it does not know it yet.
        return new DefaultRedisScript<>(common + "\n" + read(file), List.class);
    }

    private static String read(String file) {
        try (InputStream in = BreakerScripts.class.getResourceAsStream(FOLDER + file)) {
            if (in == null) {
                throw new IllegalStateException("Lua script " + FOLDER + file + " is missing from the classpath");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
