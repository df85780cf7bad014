package io.breaker.sample.security;

import jakarta.servlet.http.HttpServletRequest;
import org.springframework.security.web.util.matcher.RequestMatcher;

import java.util.Set;

/**
 * The requests cross-site request forgery can make: a write (any method but GET, HEAD, OPTIONS and
 * TRACE) that a browser sent from a page of another site. A browser names that page's origin in
 * {@code Origin} and, in current browsers, says {@code cross-site} or {@code same-site} in
 * {@code Sec-Fetch-Site}; the operators' console, served by this application, sends its own origin. A
 * client that is no browser (curl, a script) sends neither header and is not matched: it carries no
 * credentials a browser cached, so it cannot be forged.
 *
 * <p>Given to Spring Security as the requests that need CSRF protection: they never carry a token, so
 * they are refused with 403, and no page or script has to handle one.
 */
final class CrossSiteWrites implements RequestMatcher {

    private static final Set<String> SAFE_METHODS = Set.of("GET", "HEAD", "OPTIONS", "TRACE");

    @Override
    public boolean matches(HttpServletRequest request) {
        if (SAFE_METHODS.contains(request.getMethod())) {
            return false;
        }
        String site = request.getHeader("Sec-Fetch-Site");
        if ("cross-site".equals(site) || "same-site".equals(site)) {
            return true;
        }
        String origin = request.getHeader("Origin");
        return origin != null && !origin.equalsIgnoreCase(ownOrigin(request));
    }

    /**
     * {@code scheme://host[:port]} as the client addressed this application: the servlet request's own
     * view, which the server's forwarded-header handling ({@code server.forward-headers-strategy}) adjusts
     * behind a proxy.
     */
    private static String ownOrigin(HttpServletRequest request) {
        String scheme = request.getScheme();
        int port = request.getServerPort();
        boolean defaultPort =
                port <= 0 || ("http".equals(scheme) && port == 80) || ("https".equals(scheme) && port == 443);
        return scheme + "://" + request.getServerName() + (defaultPort ? "" : ":" + port);
    }
}
