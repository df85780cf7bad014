package io.breaker.spring.actuate;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;
import org.springframework.http.MediaType;
import org.springframework.http.server.PathContainer;
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.web.util.pattern.PathPattern;
import org.springframework.web.util.pattern.PathPatternParser;

import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * On Spring MVC, the body of a force ({@code POST {endpointPath}/{name}}) looked at before the actuator
 * reads it, as {@link ReactiveUrlOnlyWrites} does on WebFlux: the actuator reads it into text arguments
 * and ignores keys it has no parameter for, so a state sent as a JSON array or object would get Spring's
 * bare 400, and {@code {"state": "OPEN", "force": true}} would be applied. A body that
 * {@link UrlOnlyWrites#bodyRefusal} refuses gets the endpoint's 400 and nothing changes; any other goes on
 * with its bytes as they came. Registered after Spring Security's filter, so a request that may not
 * write is refused before its body is read, and after {@link OperatorRequestLimit}, which bounds what it
 * reads.
 */
public final class ForceBodyCheck extends OncePerRequestFilter {

    private final PathPattern breaker;
    private final Function<byte[], @Nullable Map<?, ?>> read;
    private final Function<Object, String> json;

    /**
     * @param breakerPath where the endpoint's write of one breaker is, from the context path on
     *                    ({@code /actuator/breakers/{name}} by default, with Spring MVC's servlet path)
     * @param read        reads a JSON object, or answers {@code null} when the bytes are none
     * @param json        writes a refusal as the endpoint writes its answers
     */
    public ForceBodyCheck(
            String breakerPath, Function<byte[], @Nullable Map<?, ?>> read, Function<Object, String> json) {
        this.breaker = PathPatternParser.defaultInstance.parse(breakerPath);
        this.read = Objects.requireNonNull(read, "read");
        this.json = Objects.requireNonNull(json, "json");
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (!"POST".equals(request.getMethod())
                || !json(request.getContentType())
                || !breaker.matches(PathContainer.parsePath(request.getRequestURI()
                        .substring(request.getContextPath().length())))) {
            chain.doFilter(request, response);
            return;
        }
        byte[] body = request.getInputStream().readAllBytes();
        Map<?, ?> parsed = body.length == 0 ? null : read.apply(body);
        ErrorDescriptor refusal = parsed == null ? null : UrlOnlyWrites.bodyRefusal(parsed);
        if (refusal != null) {
            response.setStatus(refusal.status());
            response.setContentType(MediaType.APPLICATION_JSON_VALUE);
            response.getOutputStream().write(json.apply(refusal).getBytes(StandardCharsets.UTF_8));
            return;
        }
        chain.doFilter(new Replayed(request, body), response);
    }

    private static boolean json(@Nullable String contentType) {
        if (contentType == null) {
            return false;
        }
        try {
            MediaType type = MediaType.parseMediaType(contentType);
            return MediaType.APPLICATION_JSON.isCompatibleWith(type)
                    || type.getSubtype().endsWith("+json");
        } catch (IllegalArgumentException unreadable) {
            return false; // the endpoint answers it as it does
        }
    }

    /** The request with the body this filter read, to be read again. */
    private static final class Replayed extends HttpServletRequestWrapper {

        private final byte[] body;

        Replayed(HttpServletRequest request, byte[] body) {
            super(request);
            this.body = body;
        }

        @Override
        public ServletInputStream getInputStream() {
            ByteArrayInputStream in = new ByteArrayInputStream(body);
            return new ServletInputStream() {
                @Override
                public int read() {
                    return in.read();
                }

                @Override
                public int read(byte[] buffer, int offset, int length) {
                    return in.read(buffer, offset, length);
                }

                @Override
                public boolean isFinished() {
                    return in.available() == 0;
                }

                @Override
                public boolean isReady() {
                    return true;
                }

                @Override
                public void setReadListener(ReadListener listener) {
                    throw new UnsupportedOperationException("a body already read is read blocking");
                }
            };
        }

        @Override
        public BufferedReader getReader() {
            String encoding = getCharacterEncoding();
            return new BufferedReader(new InputStreamReader(
                    getInputStream(),
                    encoding == null ? StandardCharsets.UTF_8 : java.nio.charset.Charset.forName(encoding)));
        }
    }
}
