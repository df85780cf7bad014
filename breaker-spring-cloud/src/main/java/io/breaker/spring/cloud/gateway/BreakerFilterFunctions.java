package io.breaker.spring.cloud.gateway;

import io.breaker.CircuitOpenException;
import jakarta.servlet.RequestDispatcher;
import org.jspecify.annotations.Nullable;
import org.springframework.cloud.client.circuitbreaker.CircuitBreakerFactory;
import org.springframework.cloud.gateway.server.mvc.common.Configurable;
import org.springframework.cloud.gateway.server.mvc.common.MvcUtils;
import org.springframework.cloud.gateway.server.mvc.common.Shortcut;
import org.springframework.cloud.gateway.server.mvc.filter.SimpleFilterSupplier;
import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.web.servlet.function.HandlerFilterFunction;
import org.springframework.web.servlet.function.HandlerFunction;
import org.springframework.web.servlet.function.ServerRequest;
import org.springframework.web.servlet.function.ServerResponse;

import java.net.URI;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The {@code circuitBreaker} filter function of Spring Cloud Gateway Server MVC, on the application's
 * {@code CircuitBreakerFactory} ({@link io.breaker.spring.cloud.BreakerCircuitBreakerFactory}), for
 * routes in the Java DSL:
 *
 * <pre>{@code
 * route("backend")
 *     .GET("/books/**", http())
 *     .before(uri("http://backend:8080"))
 *     .filter(BreakerFilterFunctions.circuitBreaker(config -> config
 *         .setId("backend").setFallbackUri("forward:/fallback").setStatusCodes("500", "503")))
 *     .build();
 * }</pre>
 *
 * <p>and for routes in properties, as {@code - name: CircuitBreaker} with the args {@code id},
 * {@code fallbackUri} (or {@code fallbackPath}) and {@code statusCodes}: {@link FilterSupplier}, which
 * breaker-spring-cloud registers, is asked before Gateway's own suppliers, so that name finds these
 * methods first.
 *
 * <p>The backend's call counts as the breaker's rules say; an answer whose status is listed under
 * {@code statusCodes} counts as a failure. When the call failed or the breaker rejected it, the
 * {@code fallbackUri} ({@code forward:/path}, forwarded within this application; URI template variables
 * in the path, {@code forward:/fallback/{segment}}, are expanded from the request's path variables, as
 * Gateway's own filter does) answers; without one, a
 * rejected call gets 503 with {@code Retry-After} (whole seconds until the breaker lets a probe through,
 * when it knows), an answer counted by its status reaches the client as the backend gave it, and an
 * exception reaches Spring MVC's error handling unchanged.
 */
public final class BreakerFilterFunctions {

    private BreakerFilterFunctions() {}

    /** The breaker {@code id}, without fallback or failure statuses. */
    @Shortcut
    public static HandlerFilterFunction<ServerResponse, ServerResponse> circuitBreaker(String id) {
        return circuitBreaker(config -> config.setId(id));
    }

    /** The breaker {@code id} with the fallback {@code fallbackUri} ({@code forward:/path}). */
    public static HandlerFilterFunction<ServerResponse, ServerResponse> circuitBreaker(String id, URI fallbackUri) {
        return circuitBreaker(config -> config.setId(id).setFallbackUri(fallbackUri));
    }

    /** The breaker {@code id} with the fallback {@code fallbackPath}, a path of this application. */
    public static HandlerFilterFunction<ServerResponse, ServerResponse> circuitBreaker(String id, String fallbackPath) {
        return circuitBreaker(config -> config.setId(id).setFallbackPath(fallbackPath));
    }

    /** The breaker as {@code configurer} sets it up. */
    public static HandlerFilterFunction<ServerResponse, ServerResponse> circuitBreaker(
            Consumer<CircuitBreakerConfig> configurer) {
        CircuitBreakerConfig config = new CircuitBreakerConfig();
        configurer.accept(config);
        return circuitBreaker(config);
    }

    /** The breaker as {@code config} describes it; the form routes in properties bind to. */
    @Shortcut("id")
    @Configurable
    public static HandlerFilterFunction<ServerResponse, ServerResponse> circuitBreaker(CircuitBreakerConfig config) {
        String id = config.getId();
        if (id == null || id.isBlank()) {
            throw new IllegalArgumentException("circuitBreaker filter: name the breaker (args: id)");
        }
        Set<Integer> failureStatuses = StatusCodes.parse(config.getStatusCodes(), "circuitBreaker filter '" + id + "'");
        String fallbackPath = config.getFallbackPath();
        boolean templated = fallbackPath != null && fallbackPath.indexOf('{') >= 0;
        return (request, next) -> {
            CircuitBreakerFactory<?, ?> factory =
                    MvcUtils.getApplicationContext(request).getBean(CircuitBreakerFactory.class);
            return factory.create(id)
                    .run(
                            () -> call(request, next, failureStatuses),
                            error -> answer(
                                    request, error, templated ? MvcUtils.expand(request, fallbackPath) : fallbackPath));
        };
    }

    private static ServerResponse call(
            ServerRequest request, HandlerFunction<ServerResponse> next, Set<Integer> failureStatuses) {
        ServerResponse response;
        try {
            response = next.handle(request);
        } catch (Exception error) {
            throw BreakerFilterFunctions.<RuntimeException>rethrow(error);
        }
        if (failureStatuses.contains(response.statusCode().value())) {
            throw new FailureStatusException(response);
        }
        return response;
    }

    private static ServerResponse answer(ServerRequest request, Throwable error, @Nullable String fallbackPath) {
        if (fallbackPath != null) {
            MvcUtils.putAttribute(request, MvcUtils.CIRCUITBREAKER_EXECUTION_EXCEPTION_ATTR, error);
            // The status is the forwarded request's to set.
            return ServerResponse.ok().build((servletRequest, servletResponse) -> {
                RequestDispatcher dispatcher = servletRequest.getRequestDispatcher(fallbackPath);
                dispatcher.forward(servletRequest, servletResponse);
                return null;
            });
        }
        if (error instanceof CircuitOpenException rejection) {
            ServerResponse.BodyBuilder response = ServerResponse.status(Rejections.STATUS);
            String retryAfter = Rejections.retryAfter(rejection);
            if (retryAfter != null) {
                response.header(HttpHeaders.RETRY_AFTER, retryAfter);
            }
            return response.build();
        }
        if (error instanceof FailureStatusException failureStatus) {
            return failureStatus.response;
        }
        throw BreakerFilterFunctions.<RuntimeException>rethrow(error);
    }

    /** Throws {@code error} as it is, checked or not. */
    @SuppressWarnings("unchecked")
    private static <E extends Throwable> E rethrow(Throwable error) throws E {
        throw (E) error;
    }

    /** The backend answered with a status listed under {@code statusCodes}; carries that answer. */
    static final class FailureStatusException extends RuntimeException {

        private static final long serialVersionUID = 1L;

        private final transient ServerResponse response;

        FailureStatusException(ServerResponse response) {
            super(
                    "The backend answered " + response.statusCode().value()
                            + ", a status the route's circuitBreaker counts as a failure",
                    null,
                    false,
                    false);
            this.response = response;
        }
    }

    /** The settings of one route's {@code circuitBreaker} filter. */
    public static class CircuitBreakerConfig {

        private static final String FORWARD = "forward:";

        private @Nullable String id;
        private @Nullable String fallbackPath;
        private Set<String> statusCodes = new LinkedHashSet<>();

        /** The breaker ({@code breakers.instances.<id>}); required. */
        public @Nullable String getId() {
            return id;
        }

        public CircuitBreakerConfig setId(String id) {
            this.id = id;
            return this;
        }

        /**
         * The path of this application that answers when the call failed or was rejected, or {@code null}.
         * URI template variables in it ({@code /fallback/{segment}}) are expanded from the request's path
         * variables: those of the route's {@code Path} predicate, or of the Java DSL's request predicate.
         */
        public @Nullable String getFallbackPath() {
            return fallbackPath;
        }

        public CircuitBreakerConfig setFallbackPath(@Nullable String fallbackPath) {
            if (fallbackPath != null && !fallbackPath.startsWith("/")) {
                throw new IllegalArgumentException(
                        "circuitBreaker filter: fallbackPath '" + fallbackPath + "' must start with '/'");
            }
            this.fallbackPath = fallbackPath;
            return this;
        }

        /**
         * The fallback as {@code forward:/path}; the path may hold URI template variables
         * ({@code forward:/fallback/{segment}}), expanded at each call from the request's path variables.
         */
        public CircuitBreakerConfig setFallbackUri(@Nullable String fallbackUri) {
            if (fallbackUri != null && fallbackUri.indexOf('{') >= 0) {
                // No URI holds a template: read the scheme and the path from the text.
                if (!fallbackUri.regionMatches(true, 0, FORWARD, 0, FORWARD.length())) {
                    throw new IllegalArgumentException("circuitBreaker filter: fallbackUri '" + fallbackUri
                            + "' is no forward:/path; Server MVC forwards a fallback within the application");
                }
                return setFallbackPath(fallbackUri.substring(FORWARD.length()));
            }
            return setFallbackUri(fallbackUri == null ? null : URI.create(fallbackUri));
        }

        /** The fallback as {@code forward:/path}. */
        public CircuitBreakerConfig setFallbackUri(@Nullable URI fallbackUri) {
            if (fallbackUri == null) {
                return setFallbackPath(null);
            }
            if (!"forward".equalsIgnoreCase(fallbackUri.getScheme()) || fallbackUri.getPath() == null) {
                throw new IllegalArgumentException("circuitBreaker filter: fallbackUri '" + fallbackUri
                        + "' is no forward:/path; Server MVC forwards a fallback within the application");
            }
            return setFallbackPath(fallbackUri.getPath());
        }

        /** The backend statuses that count as failures: codes ({@code 500}) or names ({@code BAD_GATEWAY}). */
        public Set<String> getStatusCodes() {
            return statusCodes;
        }

        public CircuitBreakerConfig setStatusCodes(String... statusCodes) {
            return setStatusCodes(new LinkedHashSet<>(Arrays.asList(statusCodes)));
        }

        public CircuitBreakerConfig setStatusCodes(Set<String> statusCodes) {
            this.statusCodes = statusCodes;
            return this;
        }
    }

    /**
     * Offers these filter functions to routes in properties. Ordered first, so that the name
     * {@code CircuitBreaker} finds them before Gateway's own {@code CircuitBreakerFilterFunctions}.
     */
    public static class FilterSupplier extends SimpleFilterSupplier implements Ordered {

        public FilterSupplier() {
            super(BreakerFilterFunctions.class);
        }

        @Override
        public int getOrder() {
            return Ordered.HIGHEST_PRECEDENCE;
        }
    }
}
