package io.breaker.sample.errors;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.security.web.firewall.RequestRejectedException;
import org.springframework.security.web.firewall.RequestRejectedHandler;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * Answers what Spring Security's firewall refuses (a {@code ;}, an empty segment {@code //}, an
 * encoded {@code ..}, {@code %25}, an encoded line feed) with a 400 problem quoting the firewall's
 * reason, where Spring Security would otherwise leave a bare 400 without a message.
 */
class FirewallRejections implements RequestRejectedHandler {

    @Override
    public void handle(HttpServletRequest request, HttpServletResponse response, RequestRejectedException rejected)
            throws IOException {
        response.setStatus(HttpServletResponse.SC_BAD_REQUEST);
        response.setContentType(Problems.CONTENT_TYPE);
        response.setCharacterEncoding(StandardCharsets.UTF_8.name());
        Problems.write(
                response.getWriter(),
                HttpServletResponse.SC_BAD_REQUEST,
                "Bad Request",
                "The request's path was refused before reaching the application: " + rejected.getMessage());
    }
}
