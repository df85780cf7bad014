package io.breaker.spring.actuate;

import org.jspecify.annotations.Nullable;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.servlet.function.RequestPredicates;
import org.springframework.web.servlet.function.RouterFunction;
import org.springframework.web.servlet.function.RouterFunctions;
import org.springframework.web.servlet.function.ServerRequest;
import org.springframework.web.servlet.function.ServerResponse;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.security.Principal;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * What the {@code breakers} endpoint cannot do as an actuator operation, served by Spring MVC under
 * the endpoint's own path (which moves with {@code management.endpoints.web.base-path} and
 * {@code management.endpoints.web.path-mapping.breakers}): {@code /actuator/breakers/{name}/config} (a body keyed by YAML
 * names, which actuator operations cannot take) and {@code /actuator/breakers/stream} (server-sent
 * events, which they cannot stream). Answers are {@code OperationResponseBody} records,
 * which Spring MVC writes with the actuator's own JSON mapper (when its handler mapping is given the
 * MVC message converters), so they look like the endpoint's. An access rule written for the endpoint
 * ({@code EndpointRequest.to("breakers")}) covers these paths too. {@link ReactiveBreakerOperatorRoutes}
 * serves the same on WebFlux; the logic both call is {@link RuntimeSettings}, {@link BreakerOperations}
 * and {@link BreakerStreamSession}.
 */
public final class BreakerOperatorRoutes {

    private static final ParameterizedTypeReference<Map<String, @Nullable Object>> BODY =
            new ParameterizedTypeReference<>() {};

    private final RuntimeSettings settings;
    private final BreakerOperations operations;
    private final BreakerEventStream stream;
    private final Function<Object, String> json;
    private final boolean writable;

    /**
     * @param settings   the runtime settings
     * @param operations what the endpoint shows of a breaker
     * @param stream     the transitions to stream
     * @param json       writes an answer as the actuator does (one line of JSON)
     * @param writable   whether the endpoint's access allows writes ({@code false}: read-only, writes get 405)
     */
    public BreakerOperatorRoutes(
            RuntimeSettings settings,
            BreakerOperations operations,
            BreakerEventStream stream,
            Function<Object, String> json,
            boolean writable) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.operations = Objects.requireNonNull(operations, "operations");
        this.stream = Objects.requireNonNull(stream, "stream");
        this.json = Objects.requireNonNull(json, "json");
        this.writable = writable;
    }

    /**
     * The routes, under {@code endpointPath}: the path the actuator maps the {@code breakers} endpoint to,
     * base path and path mapping included ({@code /actuator/breakers} by default), so that they move with
     * the endpoint and every rule that matches it matches them.
     */
    public RouterFunction<ServerResponse> routes(String endpointPath) {
        String config = OperatorPaths.config(endpointPath);
        return RouterFunctions.route()
                .GET(OperatorPaths.stream(endpointPath), this::stream)
                .GET(config, this::describe)
                .POST(config, this::change)
                .DELETE(config, this::reset)
                .route(
                        RequestPredicates.path(config)
                                .and(request -> !OperatorPaths.configAnswers(
                                        request.method().name())),
                        this::notAllowed)
                .build();
    }

    /** The console's page and its two assets ({@link BreakerConsole}), under {@code endpointPath}. */
    public static RouterFunction<ServerResponse> console(String endpointPath) {
        String root = OperatorPaths.console(endpointPath);
        RouterFunctions.Builder routes = RouterFunctions.route().GET(root, request -> file(BreakerConsole.PAGE));
        for (String name : BreakerConsole.FILES.keySet()) {
            routes.GET(root + "/" + name, request -> file(name));
        }
        return routes.build();
    }

    private static ServerResponse file(String name) {
        return ServerResponse.ok()
                .contentType(BreakerConsole.FILES.get(name))
                .header(HttpHeaders.CACHE_CONTROL, BreakerConsole.CACHE_CONTROL)
                .header("X-Content-Type-Options", "nosniff")
                .body(BreakerConsole.file(name));
    }

    /**
     * Server-sent events, as {@link BreakerStreamSession} writes them, on this request's own thread; a
     * 503 with {@code Retry-After} when {@link BreakerEventStream} has no slot for this client.
     */
    private ServerResponse stream(ServerRequest request) {
        BreakerEventStream.Admission admission =
                stream.subscribe(principal(request), request.servletRequest().getRemoteAddr());
        if (admission instanceof BreakerEventStream.Admission.Refused refused) {
            return ServerResponse.status(HttpStatus.SERVICE_UNAVAILABLE)
                    .header(HttpHeaders.RETRY_AFTER, Long.toString(refused.retryAfterSeconds()))
                    .contentType(MediaType.APPLICATION_JSON)
                    .body(ErrorDescriptor.unavailable(refused.message()));
        }
        BreakerStreamSession session = new BreakerStreamSession(
                stream, ((BreakerEventStream.Admission.Admitted) admission).subscriber(), operations, json);
        return ServerResponse.ok()
                .contentType(MediaType.TEXT_EVENT_STREAM)
                .header(HttpHeaders.CACHE_CONTROL, "no-store")
                .header("X-Accel-Buffering", "no")
                .build((servletRequest, response) -> {
                    try (session) {
                        OutputStream out = response.getOutputStream();
                        for (String frame = session.next(); frame != null; frame = session.next()) {
                            out.write(frame.getBytes(StandardCharsets.UTF_8));
                            out.flush();
                        }
                    } catch (IOException clientGone) {
                        // the client went away: the session is closed, its slot free
                    } catch (InterruptedException stopping) {
                        Thread.currentThread().interrupt();
                    }
                    return null;
                });
    }

    private ServerResponse describe(ServerRequest request) {
        String name = request.pathVariable("name");
        return settings.describe(name)
                .map(found -> answer(HttpStatus.OK, found))
                .orElseGet(() -> error(ErrorDescriptor.notFound(name)));
    }

    private ServerResponse change(ServerRequest request) throws Exception {
        if (!writable) {
            return error(ErrorDescriptor.readOnly());
        }
        Map<String, @Nullable Object> body;
        try {
            body = request.body(BODY);
        } catch (HttpMessageNotReadableException notJson) {
            if (causedBy(notJson, OperatorRequestLimit.TooLarge.class)) {
                return error(OperatorRequestLimit.tooLarge(-1));
            }
            return error(ErrorDescriptor.settingsNotJson());
        } catch (OperatorRequestLimit.TooLarge tooLarge) {
            return error(OperatorRequestLimit.tooLarge(-1));
        }
        return result(settings.change(request.pathVariable("name"), body, principal(request)));
    }

    private static boolean causedBy(Throwable failure, Class<? extends Throwable> type) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (type.isInstance(cause)) {
                return true;
            }
        }
        return false;
    }

    private ServerResponse notAllowed(ServerRequest request) {
        String allowed = OperatorPaths.configMethods(writable);
        return ServerResponse.status(HttpStatus.METHOD_NOT_ALLOWED)
                .header(HttpHeaders.ALLOW, allowed)
                .contentType(MediaType.APPLICATION_JSON)
                .body(ErrorDescriptor.methodNotAllowed(request.method().name(), allowed));
    }

    private ServerResponse reset(ServerRequest request) {
        if (!writable) {
            return error(ErrorDescriptor.readOnly());
        }
        return result(settings.reset(request.pathVariable("name"), principal(request)));
    }

    private ServerResponse result(RuntimeSettings.Result result) {
        if (result instanceof RuntimeSettings.Result.Applied applied) {
            return answer(HttpStatus.OK, applied.settings());
        }
        if (result instanceof RuntimeSettings.Result.Stale stale) {
            return answer(HttpStatus.CONFLICT, stale.conflict());
        }
        return error(((RuntimeSettings.Result.Refused) result).error());
    }

    private static @Nullable String principal(ServerRequest request) {
        return request.principal().map(Principal::getName).orElse(null);
    }

    private static ServerResponse error(ErrorDescriptor error) {
        return answer(HttpStatus.valueOf(error.status()), error);
    }

    private static ServerResponse answer(HttpStatus status, Object body) {
        return ServerResponse.status(status)
                .contentType(MediaType.APPLICATION_JSON)
                .body(body);
    }
}
