package io.breaker.spring.test;

import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.context.annotation.ImportBeanDefinitionRegistrar;
import org.springframework.core.type.AnnotationMetadata;
import org.springframework.util.ClassUtils;

/**
 * Runs a reactive application on Reactor Netty, WebFlux's usual server. The suites' class path also has
 * Tomcat (for the servlet suites), which Spring Boot would otherwise pick for WebFlux too. Import it in
 * a test, or add it to an application's sources.
 */
public class OnReactorNetty implements ImportBeanDefinitionRegistrar {

    @Override
    public void registerBeanDefinitions(AnnotationMetadata metadata, BeanDefinitionRegistry registry) {
        Class<?> factory =
                ClassUtils.resolveClassName(BootLine.nettyWebServerFactory(), OnReactorNetty.class.getClassLoader());
        registry.registerBeanDefinition("reactorNettyWebServerFactory", new RootBeanDefinition(factory));
    }
}
