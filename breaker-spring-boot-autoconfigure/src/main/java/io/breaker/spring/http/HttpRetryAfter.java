package io.breaker.spring.http;

import io.breaker.RetryAfterAware;
import io.breaker.RetryAfterResolver;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseEntity;
import org.springframework.util.ClassUtils;
import org.springframework.web.client.RestClientResponseException;
import org.springframework.web.reactive.function.client.WebClientResponseException;

import java.time.Clock;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Reads the {@code Retry-After} header of the HTTP response a failure carries: the exception of
 * Spring's {@code RestClient} and {@code RestTemplate} ({@link RestClientResponseException}), of
 * {@code WebClient} ({@link WebClientResponseException}), or a {@link ResponseEntity} counted as a
 * failure by {@code record-result}; exceptions are looked through down their causes. Both forms of
 * the header are read: a number of seconds ({@code 120}), and an HTTP date
 * ({@code Wed, 02 Dec 2026 06:00:00 GMT}), which counts from the wall clock given. A header that is
 * neither is ignored, and the first one is logged at DEBUG (on {@code io.breaker.spring.http}).
 *
 * <p>The starter gives it to every breaker when spring-web is on the classpath (a
 * {@code BreakerConfigCustomizer} may set another {@link RetryAfterResolver}). It is asked only for
 * the failure that opens a breaker; a failure that is none of these types reads nothing here, and the
 * breaker still asks whether it is a {@link RetryAfterAware}.
 */
public final class HttpRetryAfter implements RetryAfterResolver {

    private static final Log LOG = LogFactory.getLog(HttpRetryAfter.class);

    private static final String RETRY_AFTER = "Retry-After";
    private static final int MAX_CAUSES = 16;
    private static final boolean WEB = present("org.springframework.web.client.RestClientResponseException");
    private static final boolean WEB_CLIENT =
            present("org.springframework.web.reactive.function.client.WebClientResponseException");

    private final Clock wallClock;
    private final AtomicBoolean malformedLogged = new AtomicBoolean();

    /** A resolver that dates HTTP-date headers against {@code wallClock}. */
    public HttpRetryAfter(Clock wallClock) {
        this.wallClock = wallClock;
    }

    /** Whether spring-web, which this class reads, is on the classpath. */
    public static boolean available() {
        return WEB;
    }

    @Override
    public Optional<Duration> retryAfter(Object failure) {
        if (!WEB) {
            return Optional.empty();
        }
        @Nullable Object at = failure;
        for (int i = 0; i < MAX_CAUSES && at != null; i++) {
            @Nullable HttpHeaders headers = headers(at);
            if (headers != null) {
                @Nullable String value = headers.getFirst(RETRY_AFTER);
                return value == null ? Optional.empty() : parse(value);
            }
            at = at instanceof Throwable error && error.getCause() != error ? error.getCause() : null;
        }
        return Optional.empty();
    }

    /**
     * The wait a {@code Retry-After} value asks for: delta-seconds, or an HTTP date from now (empty
     * once passed). Empty, and logged once at DEBUG, when it is neither.
     */
    Optional<Duration> parse(String value) {
        String trimmed = value.trim();
        if (!trimmed.isEmpty() && trimmed.chars().allMatch(c -> c >= '0' && c <= '9')) {
            // More digits than a long holds is still "a very long time": the breaker's cap decides.
            return Optional.of(trimmed.length() > 12 ? Duration.ofSeconds(999_999_999_999L) : seconds(trimmed));
        }
        try {
            ZonedDateTime at = ZonedDateTime.parse(trimmed, DateTimeFormatter.RFC_1123_DATE_TIME);
            Duration left = Duration.between(wallClock.instant(), at.toInstant());
            return left.isNegative() || left.isZero() ? Optional.empty() : Optional.of(left);
        } catch (DateTimeParseException malformed) {
            if (malformedLogged.compareAndSet(false, true) && LOG.isDebugEnabled()) {
                LOG.debug("Ignoring a Retry-After header that is neither seconds nor an HTTP date: '" + trimmed
                        + "' (further ones are ignored without a word)");
            }
            return Optional.empty();
        }
    }

    private static Duration seconds(String digits) {
        return Duration.ofSeconds(Long.parseLong(digits));
    }

    private static @Nullable HttpHeaders headers(Object failure) {
        if (failure instanceof RestClientResponseException rest) {
            return rest.getResponseHeaders();
        }
        if (failure instanceof ResponseEntity<?> entity) {
            return entity.getHeaders();
        }
        if (WEB_CLIENT) {
            return ReactiveClient.headers(failure);
        }
        return null;
    }

    /** Apart, so that this class loads without spring-webflux. */
    private static final class ReactiveClient {
        static @Nullable HttpHeaders headers(Object failure) {
            return failure instanceof WebClientResponseException web ? web.getHeaders() : null;
        }
    }

    private static boolean present(String className) {
        return ClassUtils.isPresent(className, HttpRetryAfter.class.getClassLoader());
    }
}
