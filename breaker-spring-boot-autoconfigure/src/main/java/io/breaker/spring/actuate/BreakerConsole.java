package io.breaker.spring.actuate;

import org.springframework.core.io.ClassPathResource;
import org.springframework.core.io.Resource;
import org.springframework.http.MediaType;

import java.util.Map;

/**
 * The operators' console: static files inside the jar (no CDN, no build step), served under
 * the {@code breakers} endpoint's path, so that the endpoint's access rules cover it. The page reads
 * {@code /actuator/breakers}, follows {@code /actuator/breakers/stream}, and writes through the
 * endpoint's POST and {@code /config}. Each web stack serves these files with its own routes
 * ({@link BreakerOperatorRoutes#console}, {@link ReactiveBreakerOperatorRoutes#console}).
 */
final class BreakerConsole {

    /** What {@code {endpointPath}/console} itself answers. */
    static final String PAGE = "console.html";
    /** The files, by their names under {@code {endpointPath}/console/}, with their media types. */
    static final Map<String, MediaType> FILES = Map.of(
            "console.html", MediaType.TEXT_HTML,
            "console.js", MediaType.valueOf("text/javascript"),
            "console-chart.js", MediaType.valueOf("text/javascript"),
            "console.css", MediaType.valueOf("text/css"));
    /** Cache-Control of every file: the browser asks again, so that a new version shows at once. */
    static final String CACHE_CONTROL = "no-cache";

    private static final String FOLDER = "io/breaker/spring/console/";

    private BreakerConsole() {}

    /** One of {@link #FILES}. */
    static Resource file(String name) {
        return new ClassPathResource(FOLDER + name, BreakerConsole.class.getClassLoader());
    }
}
