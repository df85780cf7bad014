package io.breaker.spring.actuate;

import org.springframework.core.Ordered;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferLimitException;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.codec.HttpMessageReader;
import org.springframework.http.codec.HttpMessageWriter;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpRequestDecorator;
import org.springframework.util.MultiValueMap;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import org.springframework.web.reactive.result.view.ViewResolver;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import org.springframework.web.util.pattern.PathPattern;
import org.springframework.web.util.pattern.PathPatternParser;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@link UrlOnlyWrites} on WebFlux, where the endpoint's write operation cannot see the request: a filter
 * that looks at each {@code POST {endpointPath}/{name}} before the endpoint does. A {@code name} or
 * {@code state} in the query, a {@code name} in the JSON body other than the URL's, or a body with another
 * key or a state that is no text ({@link UrlOnlyWrites#bodyRefusal}) is refused with the 400 Spring MVC
 * gives, and nothing changes; any other write goes on to the endpoint, with its body as
 * it came. Ordered after Spring Security's filter (-100), so that a request that may not write is
 * refused before its body is read. With read-only access it lets everything through: the endpoint then
 * answers every write with a 405 itself.
 */
public final class ReactiveUrlOnlyWrites implements WebFilter, Ordered {

    /** After Spring Security's {@code WebFilterChainProxy} (-100). */
    public static final int ORDER = 0;
    /** The largest body read to find its {@code name}, as WebFlux's codecs allow by default. */
    static final int MAX_BODY_BYTES = OperatorRequestLimit.MAX_BODY_BYTES;

    private static final ParameterizedTypeReference<Map<String, Object>> BODY = new ParameterizedTypeReference<>() {};

    private final PathPattern breaker;
    private final List<HttpMessageReader<?>> readers;
    private final List<HttpMessageWriter<?>> writers;
    private final boolean writable;

    /**
     * @param endpointPath where the actuator maps the endpoint (base path and path mapping applied)
     * @param readers      the codecs that read a JSON body
     * @param writers      the codecs that write the refusal (the actuator's JSON for its records)
     * @param writable     whether the endpoint's access allows writes
     */
    public ReactiveUrlOnlyWrites(
            String endpointPath,
            List<HttpMessageReader<?>> readers,
            List<HttpMessageWriter<?>> writers,
            boolean writable) {
        this.breaker = PathPatternParser.defaultInstance.parse(OperatorPaths.breaker(endpointPath));
        this.readers = List.copyOf(readers);
        this.writers = List.copyOf(writers);
        this.writable = writable;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        ServerHttpRequest request = exchange.getRequest();
        if (!writable || request.getMethod() != HttpMethod.POST) {
            return chain.filter(exchange);
        }
        PathPattern.PathMatchInfo match =
                breaker.matchAndExtract(request.getPath().pathWithinApplication());
        if (match == null) {
            return chain.filter(exchange);
        }
        String inUrl = match.getUriVariables().get("name");
        MultiValueMap<String, String> query = request.getQueryParams();
        String refusal = UrlOnlyWrites.refusal(inUrl, null, query.containsKey("name") || query.containsKey("state"));
        if (refusal != null) {
            return refuse(exchange, ErrorDescriptor.badRequest(refusal));
        }
        MediaType type = request.getHeaders().getContentType();
        if (type == null
                || (!MediaType.APPLICATION_JSON.isCompatibleWith(type)
                        && !type.getSubtype().endsWith("+json"))) {
            return chain.filter(exchange); // not a body the endpoint reads: it answers as it does
        }
        return DataBufferUtils.join(request.getBody(), MAX_BODY_BYTES)
                .map(ReactiveUrlOnlyWrites::bytes)
                .defaultIfEmpty(new byte[0])
                .flatMap(body -> {
                    ServerWebExchange again = exchange.mutate()
                            .request(new ServerHttpRequestDecorator(request) {
                                @Override
                                public Flux<DataBuffer> getBody() {
                                    return Flux.defer(() -> Flux.just(exchange.getResponse()
                                            .bufferFactory()
                                            .wrap(body)));
                                }
                            })
                            .build();
                    if (body.length == 0) {
                        return chain.filter(again);
                    }
                    return ServerRequest.create(again, readers)
                            .bodyToMono(BODY)
                            .map(Optional::of)
                            .onErrorResume(notJson -> Mono.just(Optional.empty())) // the endpoint says what is wrong
                            .defaultIfEmpty(Optional.empty())
                            .flatMap(json -> {
                                ErrorDescriptor badBody =
                                        json.map(UrlOnlyWrites::bodyRefusal).orElse(null);
                                if (badBody != null) {
                                    return refuse(again, badBody);
                                }
                                String wrongName = UrlOnlyWrites.refusal(
                                        inUrl,
                                        json.map(found -> found.get("name")).orElse(null),
                                        false);
                                return wrongName == null
                                        ? chain.filter(again)
                                        : refuse(again, ErrorDescriptor.badRequest(wrongName));
                            });
                })
                .onErrorResume(
                        DataBufferLimitException.class,
                        tooLarge ->
                                refuse(exchange, ErrorDescriptor.tooLarge(-1, OperatorRequestLimit.MAX_BODY_BYTES)));
    }

    private static byte[] bytes(DataBuffer buffer) {
        try {
            byte[] bytes = new byte[buffer.readableByteCount()];
            buffer.read(bytes);
            return bytes;
        } finally {
            DataBufferUtils.release(buffer);
        }
    }

    private Mono<Void> refuse(ServerWebExchange exchange, ErrorDescriptor error) {
        return ServerResponse.status(HttpStatus.valueOf(error.status()))
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(error)
                .flatMap(response -> response.writeTo(exchange, new ServerResponse.Context() {
                    @Override
                    public List<HttpMessageWriter<?>> messageWriters() {
                        return writers;
                    }

                    @Override
                    public List<ViewResolver> viewResolvers() {
                        return List.of();
                    }
                }));
    }

    @Override
    public int getOrder() {
        return ORDER;
    }
}
