package io.breaker.spring.actuate;

import jakarta.servlet.http.HttpServletRequest;
import org.jspecify.annotations.Nullable;
import org.springframework.util.ClassUtils;
import org.springframework.web.context.request.RequestAttributes;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;
import org.springframework.web.servlet.HandlerMapping;

import java.util.List;
import java.util.Map;

/**
 * Actuator merges the path, the JSON body and the query into one set of arguments, later ones
 * winning, so {@code POST /actuator/breakers/dep} with {@code "name": "other"} in the body (or
 * {@code ?name=other}) would reach {@code other}, and {@code ?state=OPEN} would be applied with an
 * empty body: a per-breaker access rule on the URL could be bypassed. The rule is {@link #refusal(String,
 * Object, boolean)}; on a servlet stack (Spring MVC) the endpoint asks {@link #refusal(String)}, which
 * looks at the request itself; on WebFlux, where the endpoint cannot see the request,
 * {@link ReactiveUrlOnlyWrites} applies it before the endpoint.
 */
final class UrlOnlyWrites {

    private static final boolean SERVLET_MVC = ClassUtils.isPresent(
                    "org.springframework.web.servlet.HandlerMapping", UrlOnlyWrites.class.getClassLoader())
            && ClassUtils.isPresent("jakarta.servlet.http.HttpServletRequest", UrlOnlyWrites.class.getClassLoader());

    private UrlOnlyWrites() {}

    /**
     * Why a write to the breaker the URL names must be refused, or {@code null} when the URL alone
     * names its breaker and the body alone carries the state.
     *
     * @param inUrl         the breaker's name in the URL
     * @param inBody        the {@code name} in the JSON body, or {@code null}
     * @param nameOrStateInQuery whether the query has a {@code name} or a {@code state}
     */
    @Nullable
    static String refusal(String inUrl, @Nullable Object inBody, boolean nameOrStateInQuery) {
        if (nameOrStateInQuery) {
            return "name and state are not read from the query: the URL names the breaker, and the state goes"
                    + " in the JSON body, as in {\"state\": \"OPEN\"}";
        }
        if (inBody != null && !inUrl.equals(String.valueOf(inBody))) {
            return "the URL names the breaker '" + inUrl + "'; a name in the body cannot change it (remove \"name\")";
        }
        return null;
    }

    /** The keys the JSON body of a force may have. */
    static final List<String> BODY_KEYS = List.of("state", "name");

    /**
     * Why the JSON body of a force must be refused before the endpoint reads it, or {@code null}: a key
     * other than {@link #BODY_KEYS} (a body key that is not read is refused, as in a change of settings,
     * not ignored), or a {@code state} or {@code name} that is a JSON array or object.
     */
    static @Nullable ErrorDescriptor bodyRefusal(Map<?, ?> body) {
        for (Object key : body.keySet()) {
            if (!BODY_KEYS.contains(key)) {
                return ErrorDescriptor.unknownKey(
                        "the body of a force takes the keys state and name, not '"
                                + ErrorDescriptor.cut(String.valueOf(key), 100) + "', as in {\"state\": \"OPEN\"}",
                        BODY_KEYS);
            }
        }
        String state = notText(body.get("state"));
        if (state != null) {
            return ErrorDescriptor.stateNotText(state);
        }
        String name = notText(body.get("name"));
        if (name != null) {
            return ErrorDescriptor.badRequest(
                    "name in the body, if any, must be the URL's breaker name as a text; was " + name);
        }
        return null;
    }

    /** What a JSON value is when it is an array or an object, else {@code null}. */
    private static @Nullable String notText(@Nullable Object value) {
        if (value instanceof List<?>) {
            return "a JSON array";
        }
        return value instanceof Map<?, ?> ? "a JSON object" : null;
    }

    /**
     * On a servlet stack, why the current write must be refused, or {@code null} when the URL alone names
     * its breaker; {@code name} is the one the endpoint was given (the body's or the query's, if any).
     */
    @Nullable
    static String refusal(String name) {
        return SERVLET_MVC ? Servlet.refusal(name) : null;
    }

    /** Touches the servlet and Spring MVC types only when they are there. */
    private static final class Servlet {

        static @Nullable String refusal(String name) {
            RequestAttributes attributes = RequestContextHolder.getRequestAttributes();
            if (!(attributes instanceof ServletRequestAttributes servlet)) {
                return null;
            }
            HttpServletRequest request = servlet.getRequest();
            Object variables = request.getAttribute(HandlerMapping.URI_TEMPLATE_VARIABLES_ATTRIBUTE);
            String inUrl = variables instanceof Map<?, ?> map && map.get("name") instanceof String found ? found : name;
            return UrlOnlyWrites.refusal(
                    inUrl, name, request.getParameter("name") != null || request.getParameter("state") != null);
        }
    }
}
