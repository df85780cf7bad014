package io.breaker.spring.http;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.logging.LogLevel;
import org.springframework.boot.logging.LoggingSystem;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.client.HttpServerErrorException;
import org.springframework.web.reactive.function.client.WebClientResponseException;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** What {@link HttpRetryAfter} reads from each kind of failure, and from each form of the header. */
@ExtendWith(OutputCaptureExtension.class)
class HttpRetryAfterTest {

    private static final Instant NOW = Instant.parse("2026-12-02T05:00:00Z");

    private final HttpRetryAfter retryAfter = new HttpRetryAfter(Clock.fixed(NOW, ZoneOffset.UTC));

    private static HttpHeaders retryAfter(String value) {
        HttpHeaders headers = new HttpHeaders();
        headers.add("Retry-After", value);
        return headers;
    }

    private static HttpServerErrorException unavailable(HttpHeaders headers) {
        return HttpServerErrorException.create(
                HttpStatus.SERVICE_UNAVAILABLE, "Service Unavailable", headers, null, null);
    }

    @Test
    void readsSecondsFromARestClientException() {
        assertThat(retryAfter.retryAfter(unavailable(retryAfter("120")))).contains(Duration.ofSeconds(120));
    }

    @Test
    void readsAnHttpDateAgainstTheWallClock() {
        assertThat(retryAfter.retryAfter(unavailable(retryAfter("Wed, 02 Dec 2026 05:05:00 GMT"))))
                .contains(Duration.ofMinutes(5));
        assertThat(retryAfter.retryAfter(unavailable(retryAfter("Wed, 02 Dec 2026 04:55:00 GMT"))))
                .as("a date already past asks for nothing")
                .isEmpty();
    }

    @Test
    void readsAWebClientExceptionAndAResponseEntity() {
        WebClientResponseException webClient =
                WebClientResponseException.create(429, "Too Many Requests", retryAfter("30"), new byte[0], null);
        ResponseEntity<String> entity =
                ResponseEntity.status(503).headers(retryAfter("45")).body("busy");

        assertThat(retryAfter.retryAfter(webClient)).contains(Duration.ofSeconds(30));
        assertThat(retryAfter.retryAfter(entity)).contains(Duration.ofSeconds(45));
    }

    @Test
    void looksThroughTheCauses() {
        RuntimeException wrapped = new IllegalStateException("wrapped", unavailable(retryAfter("60")));

        assertThat(retryAfter.retryAfter(wrapped)).contains(Duration.ofSeconds(60));
    }

    @Test
    void onlyTheFirstMalformedHeaderIsLoggedAtDebug(CapturedOutput output) {
        LoggingSystem logging = LoggingSystem.get(getClass().getClassLoader());
        logging.setLogLevel("io.breaker.spring.http", LogLevel.DEBUG);
        try {
            retryAfter.retryAfter(unavailable(retryAfter("in a while")));
            retryAfter.retryAfter(unavailable(retryAfter("later")));
        } finally {
            logging.setLogLevel("io.breaker.spring.http", null);
        }

        assertThat(output.getOut())
                .containsOnlyOnce("Ignoring a Retry-After header")
                .contains("'in a while'")
                .doesNotContain("'later'");
    }

    @Test
    void aMissingOrMalformedHeaderAndOtherFailuresSayNothing() {
        assertThat(retryAfter.retryAfter(unavailable(new HttpHeaders()))).isEmpty();
        assertThat(retryAfter.retryAfter(unavailable(retryAfter("soon")))).isEmpty();
        assertThat(retryAfter.retryAfter(unavailable(retryAfter("-5")))).isEmpty();
        assertThat(retryAfter.retryAfter(new java.io.IOException("down"))).isEmpty();
        assertThat(retryAfter.retryAfter("a plain result")).isEqualTo(Optional.empty());
    }
}
