package io.breaker.spring.actuate;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.actuate.endpoint.web.annotation.EndpointWebExtension;

import java.security.Principal;

/**
 * The HTTP side of {@link BreakersEndpoint}: an unknown breaker is a 404 and a bad request a 400 with
 * a body that says what is allowed, and a write records the authenticated principal.
 */
@EndpointWebExtension(endpoint = BreakersEndpoint.class)
public class BreakersWebEndpointExtension {

    private final BreakerOperations operations;

    public BreakersWebEndpointExtension(BreakerOperations operations) {
        this.operations = operations;
    }

    /** {@code GET /actuator/breakers/{name}}: one breaker, or 404. */
    @ReadOperation
    public WebEndpointResponse<Object> breaker(@Selector String name) {
        return operations
                .describe(name)
                .map(descriptor -> new WebEndpointResponse<Object>(descriptor, WebEndpointResponse.STATUS_OK))
                .orElseGet(() -> error(ErrorDescriptor.notFound(name)));
    }

    /**
     * {@code POST /actuator/breakers/{name}} with {@code {"state": "OPEN" | "CLOSED" | "AUTO"}}: 200
     * with the change, 404 for an unknown breaker, 400 for a missing or unknown state, and 400 when the
     * body or the query tries to name another breaker or puts the state in the query.
     */
    @WriteOperation
    // Spring's @Nullable too: Boot 3.5's actuator takes a parameter as optional only when it carries
    // Spring's annotation, not JSpecify's, and would refuse a missing state before this method explains it.
    public WebEndpointResponse<Object> changeState(
            @Selector String name,
            @org.springframework.lang.Nullable @Nullable String state,
            @Nullable Principal principal) {
        String refusal = UrlOnlyWrites.refusal(name);
        if (refusal != null) {
            return error(ErrorDescriptor.badRequest(refusal));
        }
        BreakerOperations.ChangeResult result =
                operations.change(name, state, principal == null ? null : principal.getName());
        if (result instanceof BreakerOperations.ChangeResult.Applied applied) {
            return new WebEndpointResponse<>(applied.change(), WebEndpointResponse.STATUS_OK);
        }
        return error(((BreakerOperations.ChangeResult.Refused) result).error());
    }

    static WebEndpointResponse<Object> error(ErrorDescriptor error) {
        return new WebEndpointResponse<>(error, error.status());
    }
}
