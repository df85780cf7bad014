package io.breaker.redis;

import io.breaker.CallOutcome;
import io.breaker.spi.OutcomeBits;
import org.junit.jupiter.api.Test;
import org.luaj.vm2.Globals;
import org.luaj.vm2.Varargs;
import org.luaj.vm2.lib.jse.JsePlatform;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** The Lua scripts read the outcome bits from their one definition, {@link OutcomeBits}. */
class OutcomeBitsInLuaTest {

    private static final List<String> FILES = List.of(
            "common.lua", "report.lua", "acquire-probe.lua", "probe-failed.lua", "close.lua", "force.lua", "seed.lua");
    /** A Lua assignment to one of the bit names, in any form ({@code local CALL = 1}, {@code SLOW=4}, ...). */
    private static final Pattern ASSIGNED = Pattern.compile("(?m)^[^-\\n]*\\b(CALL|FAILED|SLOW)\\b[\\w\\s,]*=[^=]");

    @Test
    void theLuaBitsAreTheJavaOnes() {
        Globals lua = JsePlatform.standardGlobals();
        Varargs bits = lua.load(BreakerScripts.outcomeBits() + "return CALL, FAILED, SLOW")
                .invoke();

        assertThat(List.of(bits.arg(1).toint(), bits.arg(2).toint(), bits.arg(3).toint()))
                .containsExactly(OutcomeBits.CALL, OutcomeBits.FAILED, OutcomeBits.SLOW);
    }

    @Test
    void everyScriptSentToRedisStartsWithThatDefinition() {
        BreakerScripts scripts = new BreakerScripts();

        assertThat(List.of(
                        scripts.report,
                        scripts.acquireProbe,
                        scripts.probeFailed,
                        scripts.close,
                        scripts.force,
                        scripts.seed))
                .allSatisfy(script -> assertThat(script.getScriptAsString()).startsWith(BreakerScripts.outcomeBits()));
    }

    @Test
    void noScriptFileDefinesTheBitsItself() throws IOException {
        for (String file : FILES) {
            try (InputStream in = getClass().getResourceAsStream("/io/breaker/redis/lua/" + file)) {
                assertThat(in).as(file).isNotNull();
                String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
                assertThat(ASSIGNED.matcher(text).find())
                        .as("%s assigns CALL, FAILED or SLOW", file)
                        .isFalse();
            }
        }
        // The check can fail: the definition common.lua had before reads as one.
        assertThat(ASSIGNED.matcher("local CALL, FAILED, SLOW = 1, 2, 4").find())
                .isTrue();
    }

    @Test
    void aReportedOutcomeCarriesTheBitsTheWindowsRecord() {
        assertThat(OutcomeBits.of(CallOutcome.FAILURE)).isEqualTo(OutcomeBits.CALL | OutcomeBits.FAILED);
        assertThat(OutcomeBits.of(CallOutcome.SLOW_SUCCESS)).isEqualTo(OutcomeBits.CALL | OutcomeBits.SLOW);
        assertThat(OutcomeBits.of(CallOutcome.SLOW_FAILURE))
                .isEqualTo(OutcomeBits.CALL | OutcomeBits.FAILED | OutcomeBits.SLOW);
    }
}
