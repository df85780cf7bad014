package io.breaker.spring.autoconfigure;

import io.breaker.spring.actuate.BreakerEventStream;
import io.breaker.spring.actuate.BreakerOperations;
import io.breaker.spring.actuate.BreakerOperatorRoutes;
import io.breaker.spring.actuate.BreakersEndpoint;
import io.breaker.spring.actuate.ForceBodyCheck;
import io.breaker.spring.actuate.OperatorRequestLimit;
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
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.core.Ordered;
import org.springframework.core.env.Environment;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpInputMessage;
import org.springframework.http.HttpOutputMessage;
import org.springframework.http.MediaType;
import org.springframework.http.converter.HttpMessageConverter;
import org.springframework.web.servlet.function.RouterFunction;
import org.springframework.web.servlet.function.ServerResponse;
import org.springframework.web.servlet.function.support.RouterFunctionMapping;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerAdapter;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The Spring MVC side of the {@code breakers} endpoint ({@link BreakerOperatorRoutes}), in the
 * management context (the application's, or its own when {@code management.server.port} differs),
 * on a servlet stack, when the endpoint is exposed over HTTP. Its handler mapping is asked before
 * the actuator's, whose {@code /actuator/breakers/{name}} would otherwise take
 * {@code /actuator/breakers/stream} for a breaker called "stream".
 */
@ManagementContextConfiguration(proxyBeanMethods = false)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass(name = "org.springframework.web.servlet.function.RouterFunction")
@ConditionalOnAvailableEndpoint(endpoint = BreakersEndpoint.class, exposure = EndpointExposure.WEB)
@ConditionalOnBean(RuntimeSettings.class)
@EnableConfigurationProperties(BreakerConsoleProperties.class)
public class BreakerOperatorWebConfiguration {

    /** Before the actuator's own mapping (order -100). */
    static final int ORDER = Ordered.HIGHEST_PRECEDENCE + 1000;

    @Bean
    RouterFunctionMapping breakerOperatorHandlerMapping(
            RuntimeSettings settings,
            BreakerOperations operations,
            BreakerEventStream stream,
            PathMappedEndpoints endpoints,
            BreakerConsoleProperties console,
            ObjectProvider<RequestMappingHandlerAdapter> mvc,
            ObjectProvider<EndpointAccessResolver> access) {
        boolean writable = OperatorAccess.writable(access);
        List<HttpMessageConverter<?>> converters = converters(mvc);
        BreakerOperatorRoutes routes =
                new BreakerOperatorRoutes(settings, operations, stream, json(converters), writable);
        // Where the actuator maps the endpoint (base path and path mapping applied): the routes move with it.
        String path = endpoints.getPath(BreakersEndpoint.ID);
        RouterFunction<ServerResponse> all = routes.routes(path);
        if (console.isEnabled()) {
            all = all.and(BreakerOperatorRoutes.console(path));
        }
        RouterFunctionMapping mapping = new RouterFunctionMapping(all);
        mapping.setOrder(ORDER);
        mapping.setMessageConverters(converters);
        return mapping;
    }

    /**
     * Bounds the body of every write to the endpoint and its routes before anything parses it
     * ({@link OperatorRequestLimit}), ahead of the security filters.
     */
    @Bean
    FilterRegistrationBean<OperatorRequestLimit> breakerOperatorRequestLimit(
            PathMappedEndpoints endpoints, ObjectProvider<RequestMappingHandlerAdapter> mvc, Environment environment) {
        String path = servletPath(environment) + endpoints.getPath(BreakersEndpoint.ID);
        FilterRegistrationBean<OperatorRequestLimit> registration =
                new FilterRegistrationBean<>(new OperatorRequestLimit(json(converters(mvc))));
        registration.addUrlPatterns(path, path + "/*");
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 10);
        return registration;
    }

    /**
     * Refuses a force whose body the endpoint would not read whole ({@link ForceBodyCheck}), after the
     * security filters; with read-only access the endpoint answers every write with a 405 itself.
     */
    @Bean
    FilterRegistrationBean<ForceBodyCheck> breakerForceBodyCheck(
            PathMappedEndpoints endpoints,
            ObjectProvider<RequestMappingHandlerAdapter> mvc,
            Environment environment,
            ObjectProvider<EndpointAccessResolver> access) {
        String path = servletPath(environment) + endpoints.getPath(BreakersEndpoint.ID);
        List<HttpMessageConverter<?>> converters = converters(mvc);
        FilterRegistrationBean<ForceBodyCheck> registration = new FilterRegistrationBean<>(
                new ForceBodyCheck(path + "/{name}", jsonObject(converters), json(converters)));
        registration.addUrlPatterns(path + "/*");
        registration.setOrder(0); // after Spring Security's filter (-100)
        registration.setEnabled(OperatorAccess.writable(access));
        return registration;
    }

    /** Reads a JSON object with the first converter that takes one; {@code null} for bytes that are none. */
    @SuppressWarnings("unchecked")
    private static Function<byte[], Map<?, ?>> jsonObject(List<HttpMessageConverter<?>> converters) {
        return bytes -> {
            for (HttpMessageConverter<?> converter : converters) {
                if (converter.canRead(Map.class, MediaType.APPLICATION_JSON)) {
                    HttpHeaders headers = new HttpHeaders();
                    headers.setContentType(MediaType.APPLICATION_JSON);
                    try {
                        return (Map<?, ?>) ((HttpMessageConverter<Object>) converter)
                                .read((Class<Object>) (Class<?>) Map.class, new HttpInputMessage() {
                                    @Override
                                    public InputStream getBody() {
                                        return new ByteArrayInputStream(bytes);
                                    }

                                    @Override
                                    public HttpHeaders getHeaders() {
                                        return headers;
                                    }
                                });
                    } catch (IOException | RuntimeException notJson) {
                        return null; // the endpoint says what is wrong
                    }
                }
            }
            return null;
        };
    }

    /** Where Spring MVC's dispatcher is mapped ({@code spring.mvc.servlet.path}), without a trailing slash. */
    private static String servletPath(Environment environment) {
        String path = environment.getProperty("spring.mvc.servlet.path", "");
        return path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
    }

    /** Spring MVC's converters, among them the actuator's writer of OperationResponseBody records. */
    private static List<HttpMessageConverter<?>> converters(ObjectProvider<RequestMappingHandlerAdapter> mvc) {
        return mvc.orderedStream()
                .findFirst()
                .map(RequestMappingHandlerAdapter::getMessageConverters)
                .orElseGet(List::of);
    }

    /** Writes a body to JSON with the first converter that takes it, as Spring MVC would answer it. */
    @SuppressWarnings("unchecked")
    private static Function<Object, String> json(List<HttpMessageConverter<?>> converters) {
        return body -> {
            for (HttpMessageConverter<?> converter : converters) {
                if (converter.canWrite(body.getClass(), MediaType.APPLICATION_JSON)) {
                    ByteArrayOutputStream out = new ByteArrayOutputStream();
                    HttpHeaders headers = new HttpHeaders();
                    try {
                        ((HttpMessageConverter<Object>) converter)
                                .write(body, MediaType.APPLICATION_JSON, new HttpOutputMessage() {
                                    @Override
                                    public OutputStream getBody() {
                                        return out;
                                    }

                                    @Override
                                    public HttpHeaders getHeaders() {
                                        return headers;
                                    }
                                });
                    } catch (IOException impossible) {
                        throw new UncheckedIOException(impossible);
                    }
                    return out.toString(StandardCharsets.UTF_8);
                }
            }
            throw new IllegalStateException(
                    "no JSON message converter for " + body.getClass().getName());
        };
    }
}
