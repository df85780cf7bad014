package io.breaker.spring.actuate;

import org.springframework.core.io.ClassPathResource;
import org.springframework.core.io.Resource;
import org.springframework.http.MediaType;
import org.springframework.web.servlet.function.RouterFunction;
import org.springframework.web.servlet.function.RouterFunctions;
import org.springframework.web.servlet.function.ServerResponse;

import java.util.Map;

/**
 * The operators' console: three static files inside the jar (no CDN, no build step), served under
 * the {@code breakers} endpoint's path, so that the endpoint's access rules cover it. The page reads
 * {@code /actuator/breakers}, follows {@code /actuator/breakers/stream}, and writes through the
 * endpoint's POST and {@code /config}.
 */
public final class BreakerConsole {

    private static final String FOLDER = "io/breaker/spring/console/";
    private static final Map<String, MediaType> FILES = Map.of(
            "console.html", MediaType.TEXT_HTML,
            "console.js", MediaType.valueOf("text/javascript"),
            "console.css", MediaType.valueOf("text/css"));

    private BreakerConsole() {}

    /** {@code {endpointPath}/console} and its two assets; see {@link BreakerOperatorRoutes#routes(String)}. */
    public static RouterFunction<ServerResponse> routes(String endpointPath) {
        String root = endpointPath + "/console";
        RouterFunctions.Builder routes = RouterFunctions.route().GET(root, request -> file("console.html"));
        for (String name : FILES.keySet()) {
            routes.GET(root + "/" + name, request -> file(name));
        }
        return routes.build();
    }

    private static ServerResponse file(String name) {
        Resource resource = new ClassPathResource(FOLDER + name, BreakerConsole.class.getClassLoader());
        return ServerResponse.ok()
                .contentType(FILES.get(name))
                .header("Cache-Control", "no-cache")
                .header("X-Content-Type-Options", "nosniff")
                .body(resource);
    }
}
