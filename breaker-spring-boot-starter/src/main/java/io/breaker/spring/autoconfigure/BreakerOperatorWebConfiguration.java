package io.breaker.spring.autoconfigure;

import io.breaker.spring.actuate.BreakerOperatorRoutes;
import io.breaker.spring.actuate.BreakersEndpoint;
import io.breaker.spring.actuate.RuntimeSettings;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.autoconfigure.endpoint.expose.EndpointExposure;
import org.springframework.boot.actuate.autoconfigure.endpoint.web.WebEndpointProperties;
import org.springframework.boot.actuate.autoconfigure.web.ManagementContextConfiguration;
import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.EndpointAccessResolver;
import org.springframework.boot.actuate.endpoint.EndpointId;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.core.Ordered;
import org.springframework.web.servlet.function.support.RouterFunctionMapping;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerAdapter;

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
public class BreakerOperatorWebConfiguration {

    /** Before the actuator's own mapping (order -100). */
    static final int ORDER = Ordered.HIGHEST_PRECEDENCE + 1000;

    @Bean
    RouterFunctionMapping breakerOperatorHandlerMapping(RuntimeSettings settings, WebEndpointProperties web,
                                                        ObjectProvider<RequestMappingHandlerAdapter> mvc,
                                                        ObjectProvider<EndpointAccessResolver> access) {
        EndpointAccessResolver resolver = access.getIfAvailable();
        boolean writable = resolver == null
                || resolver.accessFor(EndpointId.of("breakers"), Access.UNRESTRICTED) == Access.UNRESTRICTED;
        BreakerOperatorRoutes routes = new BreakerOperatorRoutes(settings, writable);
        RouterFunctionMapping mapping = new RouterFunctionMapping(routes.routes(web.getBasePath()));
        mapping.setOrder(ORDER);
        // Spring MVC's converters, among them the actuator's writer of OperationResponseBody records.
        mvc.orderedStream().findFirst().ifPresent(adapter -> mapping.setMessageConverters(adapter.getMessageConverters()));
        return mapping;
    }
}
