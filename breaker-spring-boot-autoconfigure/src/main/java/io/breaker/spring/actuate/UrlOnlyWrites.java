package io.breaker.spring.actuate;

import jakarta.servlet.http.HttpServletRequest;
import org.jspecify.annotations.Nullable;
import org.springframework.util.ClassUtils;
import org.springframework.web.context.request.RequestAttributes;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;
import org.springframework.web.servlet.HandlerMapping;

import java.util.Map;

/**
 * Actuator merges the path, the JSON body and the query into one set of arguments, later ones
 * winning, so {@code POST /actuator/breakers/dep} with {@code "name": "other"} in the body (or
 * {@code ?name=other}) would reach {@code other}, and {@code ?state=OPEN} would be applied with an
 * empty body: a per-breaker access rule on the URL could be bypassed. On a servlet stack (Spring MVC)
 * this looks at the request itself and refuses such a write.
 */
final class UrlOnlyWrites {

    private static final boolean SERVLET_MVC = ClassUtils.isPresent(
                    "org.springframework.web.servlet.HandlerMapping", UrlOnlyWrites.class.getClassLoader())
            && ClassUtils.isPresent("jakarta.servlet.http.HttpServletRequest", UrlOnlyWrites.class.getClassLoader());

    private UrlOnlyWrites() {}

    /** Why the current write must be refused, or {@code null} when the URL alone names its breaker. */
    static @Nullable String refusal(String name) {
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
            if (request.getParameter("name") != null || request.getParameter("state") != null) {
                return "name and state are not read from the query: the URL names the breaker, and the state goes"
                        + " in the JSON body, as in {\"state\": \"OPEN\"}";
            }
            Object variables = request.getAttribute(HandlerMapping.URI_TEMPLATE_VARIABLES_ATTRIBUTE);
            if (variables instanceof Map<?, ?> map && map.get("name") instanceof String inUrl && !inUrl.equals(name)) {
                return "the URL names the breaker '" + inUrl
                        + "'; a name in the body cannot change it (remove \"name\")";
            }
            return null;
        }
    }
}
