package io.breaker.spring.test;

import org.springframework.beans.factory.config.RuntimeBeanReference;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.context.annotation.ImportBeanDefinitionRegistrar;
import org.springframework.core.type.AnnotationMetadata;
import org.springframework.http.client.ReactorResourceFactory;
import org.springframework.util.ClassUtils;

/**
 * Runs a reactive application on Reactor Netty, WebFlux's usual server. The suites' class path also has
 * Tomcat (for the servlet suites), which Spring Boot would otherwise pick for WebFlux too. Import it in
 * a test, or add a configuration that imports it to an application's sources.
 *
 * <p>The server runs on event loops of its own application, not Reactor Netty's global ones: the suites
 * keep many applications open in one JVM, and closing one disposes the global loops, under the feet of
 * a server of another that writes a stream from outside its event loop.
 */
public class OnReactorNetty implements ImportBeanDefinitionRegistrar {

    @Override
    public void registerBeanDefinitions(AnnotationMetadata metadata, BeanDefinitionRegistry registry) {
        RootBeanDefinition resources = new RootBeanDefinition(ReactorResourceFactory.class);
        resources.getPropertyValues().add("useGlobalResources", false);
        registry.registerBeanDefinition("reactorNettyResourceFactory", resources);
        Class<?> factory =
                ClassUtils.resolveClassName(BootLine.nettyWebServerFactory(), OnReactorNetty.class.getClassLoader());
        RootBeanDefinition server = new RootBeanDefinition(factory);
        server.getPropertyValues().add("resourceFactory", new RuntimeBeanReference("reactorNettyResourceFactory"));
        registry.registerBeanDefinition("reactorNettyWebServerFactory", server);
    }
}
