package io.breaker.spring.actuate;

import org.springframework.boot.actuate.endpoint.OperationResponseBody;

import java.util.List;

/**
 * The body of a 404 or 400 answer of the {@code breakers} endpoint.
 *
 * @param status        the HTTP status code
 * @param error         the status's reason phrase
 * @param message       what was wrong, naming the breaker or the allowed states
 * @param allowedStates the states a request may ask for (on a 400), or {@code null}
 */
public record ErrorDescriptor(int status, String error, String message, List<RequestedState> allowedStates)
        implements OperationResponseBody {

    static ErrorDescriptor notFound(String name) {
        return new ErrorDescriptor(404, "Not Found", "No circuit breaker named '" + name + "'", null);
    }

    static ErrorDescriptor badRequest(String message) {
        return new ErrorDescriptor(400, "Bad Request", message, null);
    }

    static ErrorDescriptor readOnly() {
        return new ErrorDescriptor(
                405,
                "Method Not Allowed",
                "the breakers endpoint is read-only (management.endpoint.breakers.access)",
                null);
    }

    static ErrorDescriptor settingsNotJson() {
        return badRequest("the body must be a JSON object of settings by their YAML names,"
                + " as in {\"failure-rate-threshold\": 30, \"wait-duration-in-open-state\": \"10s\"}");
    }

    static ErrorDescriptor unavailable(String message) {
        return new ErrorDescriptor(503, "Service Unavailable", message, null);
    }

    static ErrorDescriptor badState(String requested) {
        String was = requested == null ? "it is missing" : "was '" + requested + "'";
        return new ErrorDescriptor(
                400,
                "Bad Request",
                "state must be one of OPEN, CLOSED, AUTO; " + was,
                List.of(RequestedState.values()));
    }
}
