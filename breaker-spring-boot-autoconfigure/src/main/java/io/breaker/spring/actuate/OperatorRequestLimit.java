package io.breaker.spring.actuate;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;
import org.springframework.web.filter.OncePerRequestFilter;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.function.Function;

/**
 * Bounds what a write to the {@code breakers} endpoint may send, before anything parses it: a request
 * whose {@code Content-Length} is over {@link #MAX_BODY_BYTES} gets a 413 at once, and one without a
 * length is cut there (reading past it fails, and the request gets the same 413). A force or a
 * settings change is a few dozen bytes; without a bound, a body of many megabytes would be parsed whole
 * before its first key is checked. Reads (GET, HEAD, OPTIONS) pass untouched.
 */
public final class OperatorRequestLimit extends OncePerRequestFilter {

    /** The most a write to the endpoint may carry. */
    public static final int MAX_BODY_BYTES = 8 * 1024;

    private final Function<Object, String> json;

    /** @param json writes the 413's body as the endpoint writes its answers */
    public OperatorRequestLimit(Function<Object, String> json) {
        this.json = Objects.requireNonNull(json, "json");
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String method = request.getMethod();
        if (method.equals("GET") || method.equals("HEAD") || method.equals("OPTIONS")) {
            chain.doFilter(request, response);
            return;
        }
        long length = request.getContentLengthLong();
        if (length > MAX_BODY_BYTES) {
            refuse(response, tooLarge(length));
            return;
        }
        try {
            chain.doFilter(new Capped(request), response);
        } catch (IOException | ServletException | RuntimeException failure) {
            if (!causedBy(failure) || response.isCommitted()) {
                throw failure;
            }
            // A body without a length, cut here while a handler parsed it: the same answer as for a long one.
            response.reset();
            refuse(response, tooLarge(-1));
        }
    }

    private void refuse(HttpServletResponse response, ErrorDescriptor error) throws IOException {
        response.setStatus(error.status());
        response.setContentType("application/json");
        response.getOutputStream().write(json.apply(error).getBytes(StandardCharsets.UTF_8));
    }

    private static boolean causedBy(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof TooLarge) {
                return true;
            }
        }
        return false;
    }

    static ErrorDescriptor tooLarge(long length) {
        return ErrorDescriptor.tooLarge(length, MAX_BODY_BYTES);
    }

    /** Thrown by a capped body read past {@link #MAX_BODY_BYTES}. */
    static final class TooLarge extends IOException {

        TooLarge() {
            super("the request body is over " + MAX_BODY_BYTES + " bytes");
        }
    }

    /** The request with a body that cannot be read past the limit. */
    private static final class Capped extends HttpServletRequestWrapper {

        private @Nullable ServletInputStream capped;

        Capped(HttpServletRequest request) {
            super(request);
        }

        @Override
        public ServletInputStream getInputStream() throws IOException {
            if (capped == null) {
                capped = new CappedStream(super.getInputStream());
            }
            return capped;
        }

        @Override
        public BufferedReader getReader() throws IOException {
            String encoding = getCharacterEncoding();
            Charset charset = encoding == null ? StandardCharsets.UTF_8 : Charset.forName(encoding);
            return new BufferedReader(new InputStreamReader(getInputStream(), charset));
        }
    }

    private static final class CappedStream extends ServletInputStream {

        private final ServletInputStream in;
        private int read;

        CappedStream(ServletInputStream in) {
            this.in = in;
        }

        @Override
        public int read() throws IOException {
            int b = in.read();
            if (b >= 0 && ++read > MAX_BODY_BYTES) {
                throw new TooLarge();
            }
            return b;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            int n = in.read(buffer, offset, length);
            if (n > 0) {
                read += n;
                if (read > MAX_BODY_BYTES) {
                    throw new TooLarge();
                }
            }
            return n;
        }

        @Override
        public boolean isFinished() {
            return in.isFinished();
        }

        @Override
        public boolean isReady() {
            return in.isReady();
        }

        @Override
        public void setReadListener(ReadListener listener) {
            in.setReadListener(listener);
        }
    }
}
