package io.breaker.spring.actuate;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.OperationResponseBody;

import java.util.List;

/**
 * The body of a 404 or 400 answer of the {@code breakers} endpoint.
 *
 * @param status        the HTTP status code
 * @param error         the status's reason phrase
 * @param message       what was wrong, naming the breaker or the allowed states
 * @param allowedStates the states a request may ask for (on a 400), or {@code null}
 * @param allowedKeys   the keys the body may have, when it had another one (on a 400), or {@code null}
 */
public record ErrorDescriptor(
        int status,
        String error,
        String message,
        @Nullable List<RequestedState> allowedStates,
        @Nullable List<String> allowedKeys)
        implements OperationResponseBody {

    ErrorDescriptor(int status, String error, String message, @Nullable List<RequestedState> allowedStates) {
        this(status, error, message, allowedStates, null);
    }

    static ErrorDescriptor notFound(String name) {
        return new ErrorDescriptor(404, "Not Found", "No circuit breaker named '" + cut(name, 100) + "'", null);
    }

    /** The longest message an answer carries: a value echoed in it is cut, not repeated whole. */
    static final int MAX_MESSAGE = 1_000;

    static ErrorDescriptor badRequest(String message) {
        return new ErrorDescriptor(400, "Bad Request", cut(message), null);
    }

    /** A body with a key it cannot have; {@code allowedKeys} are the ones it can. */
    static ErrorDescriptor unknownKey(String message, List<String> allowedKeys) {
        return new ErrorDescriptor(400, "Bad Request", cut(message), null, List.copyOf(allowedKeys));
    }

    static ErrorDescriptor readOnly() {
        return new ErrorDescriptor(
                405,
                "Method Not Allowed",
                "the breakers endpoint is read-only (management.endpoint.breakers.access)",
                null);
    }

    /** A method the operators' route does not take; {@code allowed} as in the {@code Allow} header. */
    static ErrorDescriptor methodNotAllowed(String method, String allowed) {
        return new ErrorDescriptor(
                405, "Method Not Allowed", "a breaker's settings take " + allowed + ", not " + cut(method, 20), null);
    }

    /** A write of {@code length} bytes ({@code -1}: unknown) to the endpoint, over {@code max}. */
    static ErrorDescriptor tooLarge(long length, int max) {
        return new ErrorDescriptor(
                413,
                "Payload Too Large",
                "a write to the breakers endpoint carries at most " + max + " bytes"
                        + (length >= 0 ? "; this one has " + length : ""),
                null);
    }

    static ErrorDescriptor settingsNotJson() {
        return badRequest("the body must be a JSON object of settings by their YAML names,"
                + " as in {\"failure-rate-threshold\": 30, \"wait-duration-in-open-state\": \"10s\"}");
    }

    static ErrorDescriptor unavailable(String message) {
        return new ErrorDescriptor(503, "Service Unavailable", message, null);
    }

    static ErrorDescriptor badState(@Nullable String requested) {
        return badStateWas(requested == null ? "it is missing" : "was '" + cut(requested, 100) + "'");
    }

    /** A state that is a JSON array or object: {@code kind} says which. */
    static ErrorDescriptor stateNotText(String kind) {
        return badStateWas("was " + kind + " (it is not a text)");
    }

    private static ErrorDescriptor badStateWas(String was) {
        return new ErrorDescriptor(
                400,
                "Bad Request",
                "state must be one of OPEN, CLOSED, AUTO; " + was,
                List.of(RequestedState.values()));
    }

    static String cut(String message) {
        return cut(message, MAX_MESSAGE);
    }

    /** {@code text} if it has at most {@code max} characters, else its start and how long it was. */
    static String cut(String text, int max) {
        return text == null || text.length() <= max
                ? text
                : text.substring(0, max) + "... (cut: " + text.length() + " characters)";
    }
}
