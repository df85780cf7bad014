package io.breaker.sample.errors;

import org.apache.catalina.Valve;
import org.springframework.boot.web.server.WebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.web.firewall.RequestRejectedHandler;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;

/**
 * Gives the requests refused before any controller sees them the bookshop's problem+json: those of
 * Spring Security's firewall through a {@link RequestRejectedHandler} bean (which Spring Security
 * picks up), those of Tomcat through an engine valve.
 */
@Configuration(proxyBeanMethods = false)
public class RejectedRequestsConfiguration {

    @Bean
    RequestRejectedHandler problemForFirewallRejections() {
        return new FirewallRejections();
    }

    /**
     * Adds {@link ServerRejections} to Tomcat's engine. The sample's classes run on Boot 3 and Boot 4,
     * whose Tomcat factories live in different packages, so the valve is added through the method both
     * declare, {@code addEngineValves(Valve...)}; another server has no such method and is left as it is.
     */
    @Bean
    WebServerFactoryCustomizer<WebServerFactory> problemForServerRejections() {
        return factory -> {
            Method addEngineValves;
            try {
                addEngineValves = factory.getClass().getMethod("addEngineValves", Valve[].class);
            } catch (NoSuchMethodException notTomcat) {
                return;
            }
            try {
                addEngineValves.invoke(factory, (Object) new Valve[] {new ServerRejections()});
            } catch (IllegalAccessException | InvocationTargetException e) {
                throw new IllegalStateException("Cannot add the problem+json valve to " + factory.getClass(), e);
            }
        };
    }
}
