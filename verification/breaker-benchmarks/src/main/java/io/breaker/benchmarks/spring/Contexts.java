package io.breaker.benchmarks.spring;

import io.breaker.spring.autoconfigure.BreakerAutoConfiguration;
import io.breaker.spring.autoconfigure.BreakerEventsAutoConfiguration;
import org.aopalliance.intercept.MethodInterceptor;
import org.springframework.aop.Advisor;
import org.springframework.aop.support.DefaultPointcutAdvisor;
import org.springframework.aop.support.annotation.AnnotationMatchingPointcut;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.MapPropertySource;

import java.util.Map;

/**
 * One minimal application context per side, each with only the auto-configurations its side needs,
 * named explicitly (so nothing depends on {@code AutoConfiguration.imports} being found) and ordered
 * as Spring Boot orders them. Every context has {@link AopAutoConfiguration}, as every Boot
 * application with {@code spring-boot-starter-aop} (Boot 3) or {@code spring-boot-starter-aspectj}
 * (Boot 4) does, so all proxies are made by the same auto-proxy creator, as CGLIB subclasses. No web
 * server, no logging system, no actuator, no metrics. What differs between Boot lines (resilience4j's
 * module) is chosen by {@link Resilience4jLine} from the Spring Boot on the class path.
 */
final class Contexts {

    private Contexts() {}

    static AnnotationConfigApplicationContext ours() {
        return start(Wholesale.ourProperties(), Ours.class);
    }

    static AnnotationConfigApplicationContext resilience4j() {
        return start(Wholesale.theirProperties(), Resilience4j.class);
    }

    static AnnotationConfigApplicationContext aspectFloor() {
        return start(Map.of(), MarkedOnly.class, PassThroughAspect.class);
    }

    static AnnotationConfigApplicationContext executionAspectFloor() {
        return start(Map.of(), MarkedOnly.class, ExecutionAspect.class);
    }

    static AnnotationConfigApplicationContext advisorFloor() {
        return start(Map.of(), MarkedOnly.class, AdvisorFloor.class);
    }

    private static AnnotationConfigApplicationContext start(Map<String, Object> properties, Class<?>... components) {
        AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext();
        context.getEnvironment().getPropertySources().addFirst(new MapPropertySource("benchmark", properties));
        context.register(components);
        context.refresh();
        return context;
    }

    /** Our starter as a user gets it: the registry and advice, and the transition log and events. */
    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration({
        AopAutoConfiguration.class,
        BreakerAutoConfiguration.class,
        BreakerEventsAutoConfiguration.class
    })
    static class Ours {

        @Bean
        OurWholesaler ourWholesaler() {
            return new OurWholesaler();
        }
    }

    /**
     * resilience4j's circuit breaker auto-configuration of this line (registry, aspect, fallback
     * executor) with {@link AopAutoConfiguration}, both chosen by {@link Resilience4jLine}.
     */
    @Configuration(proxyBeanMethods = false)
    @Import(Resilience4jLine.class)
    static class Resilience4j {

        @Bean
        TheirWholesaler theirWholesaler() {
            return new TheirWholesaler();
        }
    }

    /**
     * The method of the floors, proxied by the same auto-proxy creator; the advice (an aspect with an
     * AspectJ expression pointcut, {@link PassThroughAspect} or {@link ExecutionAspect}, or the
     * advisor of {@link AdvisorFloor}) is registered next to it.
     */
    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration(AopAutoConfiguration.class)
    static class MarkedOnly {

        @Bean
        MarkedWholesaler markedWholesaler() {
            return new MarkedWholesaler();
        }
    }

    /**
     * A pass-through advisor whose pointcut is static (matched once per method when the proxy is
     * built), the kind {@code @CircuitProtected}'s advisor is. The lowest cost a Spring AOP advice can have.
     */
    @Configuration(proxyBeanMethods = false)
    static class AdvisorFloor {

        @Bean
        static Advisor passThroughAdvisor() {
            MethodInterceptor passThrough = invocation -> invocation.proceed();
            return new DefaultPointcutAdvisor(
                    AnnotationMatchingPointcut.forMethodAnnotation(Marked.class), passThrough);
        }
    }
}
