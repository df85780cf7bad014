package io.breaker.spring.autoconfigure;

import io.breaker.spring.actuate.BreakerEventStream;
import io.breaker.spring.actuate.BreakerOperations;
import io.breaker.spring.actuate.BreakersEndpoint;
import io.breaker.spring.actuate.ReactiveBreakerOperatorRoutes;
import io.breaker.spring.actuate.ReactiveUrlOnlyWrites;
import io.breaker.spring.actuate.RuntimeSettings;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.autoconfigure.endpoint.expose.EndpointExposure;
import org.springframework.boot.actuate.autoconfigure.web.ManagementContextConfiguration;
import org.springframework.boot.actuate.endpoint.EndpointAccessResolver;
import org.springframework.boot.actuate.endpoint.web.PathMappedEndpoints;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.core.ResolvableType;
import org.springframework.core.codec.Encoder;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import org.springframework.http.MediaType;
import org.springframework.http.codec.EncoderHttpMessageWriter;
import org.springframework.http.codec.HttpMessageWriter;
import org.springframework.http.codec.ServerCodecConfigurer;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.ServerResponse;
import org.springframework.web.reactive.function.server.support.RouterFunctionMapping;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The WebFlux side of the {@code breakers} endpoint ({@link ReactiveBreakerOperatorRoutes}), as
 * {@link BreakerOperatorWebConfiguration} is the Spring MVC side: in the management context, on a
 * reactive stack, when the endpoint is exposed over HTTP, under the path the actuator maps it to. Its
 * handler mapping is asked before the actuator's, whose {@code /actuator/breakers/{name}} would
 * otherwise take {@code /actuator/breakers/stream} for a breaker called "stream". A filter gives the
 * endpoint's write the check Spring MVC makes inside it: the URL alone names the breaker.
 */
@ManagementContextConfiguration(proxyBeanMethods = false)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
@ConditionalOnClass(name = "org.springframework.web.reactive.function.server.RouterFunction")
@ConditionalOnAvailableEndpoint(endpoint = BreakersEndpoint.class, exposure = EndpointExposure.WEB)
@ConditionalOnBean(RuntimeSettings.class)
@EnableConfigurationProperties(BreakerConsoleProperties.class)
public class BreakerOperatorWebFluxConfiguration {

    @Bean
    RouterFunctionMapping breakerOperatorReactiveHandlerMapping(
            RuntimeSettings settings,
            BreakerOperations operations,
            BreakerEventStream stream,
            PathMappedEndpoints endpoints,
            BreakerConsoleProperties console,
            ServerCodecConfigurer codecs,
            ObjectProvider<EndpointAccessResolver> access) {
        ReactiveBreakerOperatorRoutes routes = new ReactiveBreakerOperatorRoutes(
                settings, operations, stream, json(codecs.getWriters()), OperatorAccess.writable(access));
        String path = endpoints.getPath(BreakersEndpoint.ID);
        RouterFunction<ServerResponse> all = routes.routes(path);
        if (console.isEnabled()) {
            all = all.and(ReactiveBreakerOperatorRoutes.console(path));
        }
        RouterFunctionMapping mapping = new RouterFunctionMapping(all);
        mapping.setOrder(BreakerOperatorWebConfiguration.ORDER);
        mapping.setMessageReaders(codecs.getReaders());
        return mapping;
    }

    /** The endpoint's write names its breaker by its URL alone, as on Spring MVC ({@link ReactiveUrlOnlyWrites}). */
    @Bean
    ReactiveUrlOnlyWrites breakerUrlOnlyWrites(
            PathMappedEndpoints endpoints,
            ServerCodecConfigurer codecs,
            ObjectProvider<EndpointAccessResolver> access) {
        return new ReactiveUrlOnlyWrites(
                endpoints.getPath(BreakersEndpoint.ID),
                codecs.getReaders(),
                codecs.getWriters(),
                OperatorAccess.writable(access));
    }

    /**
     * Writes a body to JSON with the first WebFlux encoder that takes it, as an answer's body would be
     * written: for the endpoint's records, the encoder the actuator gave its own mapper.
     */
    @SuppressWarnings("unchecked")
    private static Function<Object, String> json(List<HttpMessageWriter<?>> writers) {
        return body -> {
            ResolvableType type = ResolvableType.forInstance(body);
            for (HttpMessageWriter<?> writer : writers) {
                if (writer instanceof EncoderHttpMessageWriter<?> encoding
                        && encoding.canWrite(type, MediaType.APPLICATION_JSON)) {
                    DataBuffer buffer = ((Encoder<Object>) encoding.getEncoder())
                            .encodeValue(
                                    body,
                                    DefaultDataBufferFactory.sharedInstance,
                                    type,
                                    MediaType.APPLICATION_JSON,
                                    Map.of());
                    try {
                        return buffer.toString(StandardCharsets.UTF_8);
                    } finally {
                        DataBufferUtils.release(buffer);
                    }
                }
            }
            throw new IllegalStateException(
                    "no JSON encoder for " + body.getClass().getName());
        };
    }
}
