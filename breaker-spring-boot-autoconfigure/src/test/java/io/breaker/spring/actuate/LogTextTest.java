package io.breaker.spring.actuate;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Text from outside as it reaches a log line. */
class LogTextTest {

    @Test
    void aLongValueIsCutAndSaysHowLongItWas() {
        String logged = LogText.of("x".repeat(10_000_000));

        assertThat(logged).startsWith("x".repeat(LogText.MAX_LENGTH)).endsWith("... (cut: 10000000 characters)");
        assertThat(logged).hasSizeLessThan(LogText.MAX_LENGTH + 40);
    }

    @Test
    void aShortValueIsKeptWithItsControlCharactersEscaped() {
        assertThat(LogText.of("eve\r\nWARN forged")).isEqualTo("eve\\r\\nWARN forged");
        assertThat(LogText.of(null)).isEqualTo("none");
    }
}
