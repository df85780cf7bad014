package io.breaker.spring.aop;

import io.breaker.BreakerRegistry;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.aop.framework.AopProxyUtils;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.config.BeanPostProcessor;

import java.util.Set;
import java.util.function.Supplier;

/**
 * Checks every {@code @CircuitProtected} method of every bean when the bean is created, so a missing
 * or unfit fallback stops start-up instead of surfacing at the first failure. Once all singletons
 * exist, logs one line listing the breaker names used only in annotations (they get the defaults),
 * so that a typo in a name is visible.
 */
public final class CircuitProtectedValidator implements BeanPostProcessor, SmartInitializingSingleton {

    private static final Log LOGGER = LogFactory.getLog(CircuitProtectedValidator.class);

    private final ProtectedMethods methods;
    private final Supplier<BreakerRegistry> registry;

    public CircuitProtectedValidator(ProtectedMethods methods, Supplier<BreakerRegistry> registry) {
        this.methods = methods;
        this.registry = registry;
    }

    @Override
    public Object postProcessAfterInitialization(Object bean, String beanName) {
        methods.prepare(AopProxyUtils.ultimateTargetClass(bean));
        return bean;
    }

    @Override
    public void afterSingletonsInstantiated() {
        Set<String> names = methods.breakerNames();
        if (names.isEmpty()) {
            return;
        }
        names.removeAll(registry.get().configuredNames());
        if (!names.isEmpty()) {
            LOGGER.info("Breakers named only in @CircuitProtected use breakers.defaults: " + String.join(", ", names)
                    + " (configure them under breakers.instances.<name>; check the spelling if you meant a configured one)");
        }
    }
}
