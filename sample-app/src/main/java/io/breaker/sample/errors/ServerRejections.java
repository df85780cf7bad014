package io.breaker.sample.errors;

import jakarta.servlet.ServletException;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ValveBase;
import org.springframework.http.HttpStatus;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;

/**
 * An engine valve that answers the requests Tomcat itself refuses, before mapping them to the
 * application (an encoded {@code /} or {@code \}, a raw {@code \}, {@code %00}, a malformed escape or
 * invalid UTF-8 in the path, a request line longer than the server reads), with a problem instead of
 * Tomcat's HTML error page. Tomcat runs the engine's pipeline for such a request only to render its
 * error, with the error already set and no application mapped: every other request, including an
 * asynchronous request dispatched again after an error, passes through untouched.
 */
class ServerRejections extends ValveBase {

    ServerRejections() {
        super(true);
    }

    @Override
    public void invoke(Request request, Response response) throws IOException, ServletException {
        if (!response.isError() || request.getContext() != null) {
            getNext().invoke(request, response);
            return;
        }
        if (response.isCommitted() || !response.setErrorReported()) {
            return;
        }
        response.setSuspended(false);
        int status = response.getStatus();
        response.setContentType(Problems.CONTENT_TYPE);
        response.setCharacterEncoding(StandardCharsets.UTF_8.name());
        PrintWriter writer = response.getReporter();
        if (writer != null) {
            HttpStatus known = HttpStatus.resolve(status);
            Problems.write(writer, status, known == null ? "Error" : known.getReasonPhrase(), detail(status));
            response.finishResponse();
        }
    }

    private static String detail(int status) {
        if (status == 400) {
            return "The server refused the request's path before reaching the application: it accepts no encoded"
                    + " '/' (%2F) or '\\' (%5C), no '\\', no %00, only complete %-escapes of UTF-8, and a request"
                    + " line of at most 8 KB.";
        }
        return "The server refused the request before reaching the application (HTTP status " + status + ").";
    }
}
