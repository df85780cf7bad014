package io.breaker.spring.actuate;

import org.springframework.core.ParameterizedTypeReference;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.servlet.function.RouterFunction;
import org.springframework.web.servlet.function.RouterFunctions;
import org.springframework.web.servlet.function.ServerRequest;
import org.springframework.web.servlet.function.ServerResponse;

import java.security.Principal;
import java.util.Map;
import java.util.Objects;

/**
 * What the {@code breakers} endpoint cannot do as an actuator operation, served by Spring MVC under
 * the actuator's base path, next to it: {@code /actuator/breakers/{name}/config} (a body keyed by YAML
 * names, which actuator operations cannot take). Answers are {@code OperationResponseBody} records,
 * which Spring MVC writes with the actuator's own JSON mapper (when its handler mapping is given the
 * MVC message converters), so they look like the endpoint's. An access rule written for the endpoint
 * ({@code EndpointRequest.to("breakers")}) covers these paths too.
 */
public final class BreakerOperatorRoutes {

    private static final ParameterizedTypeReference<Map<String, Object>> BODY = new ParameterizedTypeReference<>() {
    };

    private final RuntimeSettings settings;
    private final boolean writable;

    /**
     * @param settings the runtime settings
     * @param writable whether the endpoint's access allows writes ({@code false}: read-only, writes get 405)
     */
    public BreakerOperatorRoutes(RuntimeSettings settings, boolean writable) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.writable = writable;
    }

    /** The routes, under {@code basePath} ({@code /actuator}). */
    public RouterFunction<ServerResponse> routes(String basePath) {
        String config = basePath + "/breakers/{name}/config";
        return RouterFunctions.route()
                .GET(config, this::describe)
                .POST(config, this::change)
                .DELETE(config, this::reset)
                .build();
    }

    private ServerResponse describe(ServerRequest request) {
        String name = request.pathVariable("name");
        return settings.describe(name).map(found -> answer(HttpStatus.OK, found))
                .orElseGet(() -> error(ErrorDescriptor.notFound(name)));
    }

    private ServerResponse change(ServerRequest request) throws Exception {
        if (!writable) {
            return readOnly();
        }
        Map<String, Object> body;
        try {
            body = request.body(BODY);
        } catch (HttpMessageNotReadableException notJson) {
            return error(ErrorDescriptor.badRequest("the body must be a JSON object of settings by their YAML names,"
                    + " as in {\"failure-rate-threshold\": 30, \"wait-duration-in-open-state\": \"10s\"}"));
        }
        return result(settings.change(request.pathVariable("name"), body, principal(request)));
    }

    private ServerResponse reset(ServerRequest request) {
        if (!writable) {
            return readOnly();
        }
        return result(settings.reset(request.pathVariable("name"), principal(request)));
    }

    private ServerResponse result(RuntimeSettings.Result result) {
        if (result instanceof RuntimeSettings.Result.Applied applied) {
            return answer(HttpStatus.OK, applied.settings());
        }
        return error(((RuntimeSettings.Result.Refused) result).error());
    }

    private static String principal(ServerRequest request) {
        return request.principal().map(Principal::getName).orElse(null);
    }

    private static ServerResponse readOnly() {
        return error(new ErrorDescriptor(405, "Method Not Allowed",
                "the breakers endpoint is read-only (management.endpoint.breakers.access)", null));
    }

    private static ServerResponse error(ErrorDescriptor error) {
        return answer(HttpStatus.valueOf(error.status()), error);
    }

    private static ServerResponse answer(HttpStatus status, Object body) {
        return ServerResponse.status(status).contentType(MediaType.APPLICATION_JSON).body(body);
    }
}
