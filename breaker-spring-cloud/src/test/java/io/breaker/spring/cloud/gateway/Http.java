package io.breaker.spring.cloud.gateway;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * Requests to the test Gateway on {@code port}, bounded so that a hung answer fails the test; each on a
 * connection of its own. Reactor Netty's server, in the versions these tests run on Boot 4, can stop
 * reading a kept-alive connection after a response that completed at once (a 503 rejection, for
 * one): the next request on it waits until the client gives up. That is the server's, not the route's,
 * so no request here reuses a connection.
 */
final class Http {

    private final int port;

    Http(int port) {
        this.port = port;
    }

    HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return client().send(request(path).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    HttpResponse<String> post(String path, String json) throws IOException, InterruptedException {
        return client().send(
                        request(path)
                                .header("Content-Type", "application/json")
                                .POST(HttpRequest.BodyPublishers.ofString(json))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
    }

    /** A client of its own, so a connection of its own. */
    private static HttpClient client() {
        return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    }

    private HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
                .timeout(Duration.ofSeconds(10));
    }
}
