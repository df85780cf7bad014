package io.breaker.spring.actuate;

import io.breaker.Transition;
import org.jspecify.annotations.Nullable;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.converter.HttpMessageNotReadableException;
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
 * ({@code EndpointRequest.to("breakers")}) covers these paths too.
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
        String config = endpointPath + "/{name}/config";
        return RouterFunctions.route()
                .GET(endpointPath + "/stream", this::stream)
                .GET(config, this::describe)
                .POST(config, this::change)
                .DELETE(config, this::reset)
                .build();
    }

    /**
     * Server-sent events: {@code snapshot} (every breaker, as {@code GET /actuator/breakers}) at once,
     * then one {@code transition} per state change as it happens, and a {@code dropped} event before
     * the end if this client fell {@link BreakerEventStream#QUEUE_CAPACITY} transitions behind. Written
     * on this request's own thread (see {@link BreakerEventStream}).
     */
    private ServerResponse stream(ServerRequest request) {
        BreakerEventStream.Subscriber subscriber = stream.subscribe();
        if (subscriber == null) {
            return error(new ErrorDescriptor(
                    503,
                    "Service Unavailable",
                    "already " + BreakerEventStream.MAX_SUBSCRIBERS + " subscribers to the breakers stream",
                    null));
        }
        return ServerResponse.ok()
                .contentType(MediaType.TEXT_EVENT_STREAM)
                .header("Cache-Control", "no-store")
                .header("X-Accel-Buffering", "no")
                .build((servletRequest, response) -> {
                    try (subscriber) {
                        OutputStream out = response.getOutputStream();
                        event(out, "snapshot", json.apply(operations.describeAll()));
                        while (true) {
                            Transition transition = subscriber.next();
                            if (subscriber.isDropped()) {
                                event(
                                        out,
                                        "dropped",
                                        "{\"reason\":\"this client fell " + BreakerEventStream.QUEUE_CAPACITY
                                                + " transitions behind\"}");
                                return null;
                            }
                            if (transition == null) {
                                out.write(": keep-alive\n\n".getBytes(StandardCharsets.UTF_8));
                                out.flush();
                                continue;
                            }
                            event(
                                    out,
                                    "transition",
                                    json.apply(new TransitionEventDescriptor(
                                            transition.breaker(),
                                            TransitionDescriptor.of(transition),
                                            operations
                                                    .describe(transition.breaker())
                                                    .orElse(null))));
                        }
                    } catch (IOException clientGone) {
                        return null;
                    } catch (InterruptedException stopping) {
                        Thread.currentThread().interrupt();
                        return null;
                    }
                });
    }

    private static void event(OutputStream out, String name, String data) throws IOException {
        out.write(("event: " + name + "\ndata: " + data + "\n\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    private ServerResponse describe(ServerRequest request) {
        String name = request.pathVariable("name");
        return settings.describe(name)
                .map(found -> answer(HttpStatus.OK, found))
                .orElseGet(() -> error(ErrorDescriptor.notFound(name)));
    }

    private ServerResponse change(ServerRequest request) throws Exception {
        if (!writable) {
            return readOnly();
        }
        Map<String, @Nullable Object> body;
        try {
            body = request.body(BODY);
        } catch (HttpMessageNotReadableException notJson) {
            if (causedBy(notJson, OperatorRequestLimit.TooLarge.class)) {
                return error(OperatorRequestLimit.tooLarge(-1));
            }
            return error(ErrorDescriptor.badRequest("the body must be a JSON object of settings by their YAML names,"
                    + " as in {\"failure-rate-threshold\": 30, \"wait-duration-in-open-state\": \"10s\"}"));
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
        if (result instanceof RuntimeSettings.Result.Stale stale) {
            return answer(HttpStatus.CONFLICT, stale.conflict());
        }
        return error(((RuntimeSettings.Result.Refused) result).error());
    }

    private static @Nullable String principal(ServerRequest request) {
        return request.principal().map(Principal::getName).orElse(null);
    }

    private static ServerResponse readOnly() {
        return error(new ErrorDescriptor(
                405,
                "Method Not Allowed",
                "the breakers endpoint is read-only (management.endpoint.breakers.access)",
                null));
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
