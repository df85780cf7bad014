package io.breaker.spring.aop;

import io.breaker.BreakerRegistry;
import io.breaker.spring.BreakerNames;
import io.breaker.spring.CircuitProtected;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.aop.config.AopConfigUtils;
import org.springframework.aop.framework.AopProxyUtils;
import org.springframework.aop.framework.ProxyConfig;
import org.springframework.aop.framework.autoproxy.AutoProxyUtils;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.core.annotation.AnnotationUtils;

import java.lang.reflect.Modifier;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Checks every {@code @CircuitProtected} method of every bean when the bean is created (before any
 * proxy is made for it), so a missing or unfit fallback, an invalid breaker name or a class no proxy
 * can extend stops start-up with an explanation instead of surfacing at the first failure. Once all
 * singletons exist, it stops start-up when a configured breaker name was rewritten by binding (see
 * {@link BreakerNames#unbracketed}), and logs one line listing the other breaker names used only in
 * annotations (they get the defaults), so that a typo in a name is visible.
 */
public final class CircuitProtectedValidator
        implements BeanPostProcessor, SmartInitializingSingleton, BeanFactoryAware {

    private static final Log LOGGER = LogFactory.getLog(CircuitProtectedValidator.class);

    private final ProtectedMethods methods;
    private final Supplier<BreakerRegistry> registry;
    private @Nullable BeanFactory beanFactory;

    public CircuitProtectedValidator(ProtectedMethods methods, Supplier<BreakerRegistry> registry) {
        this.methods = methods;
        this.registry = registry;
    }

    @Override
    public void setBeanFactory(BeanFactory beanFactory) {
        this.beanFactory = beanFactory;
    }

    /** Before initialization, so before the auto-proxy creator tries (and, for a final class, fails) to proxy it. */
    @Override
    public Object postProcessBeforeInitialization(Object bean, String beanName) {
        Class<?> type = AopProxyUtils.ultimateTargetClass(bean);
        if (Modifier.isFinal(type.getModifiers())
                && AnnotationUtils.isCandidateClass(type, CircuitProtected.class)
                && !methods.protectedMethodsOf(type).isEmpty()
                && needsClassProxy(type, beanName)) {
            String method =
                    FallbackResolver.describe(methods.protectedMethodsOf(type).get(0));
            throw new InvalidCircuitProtectedException(
                    type.getName(),
                    method,
                    "the class is final, so Spring"
                            + " cannot create the subclass proxy that applies @CircuitProtected",
                    List.of(),
                    "Remove 'final' from " + type.getName() + " (in Kotlin, make the class open, or use the"
                            + " kotlin-spring compiler plugin).");
        }
        methods.prepare(type);
        return bean;
    }

    /** Also after: a FactoryBean's product is seen only here. Preparing a class twice does nothing. */
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
        Set<String> configured = registry.get().configuredNames();
        names.removeAll(configured);
        for (String annotated : names) {
            for (String other : configured) {
                if (!methods.breakerNames().contains(other) && BreakerNames.sameUnbracketed(annotated, other)) {
                    throw rewritten(annotated, other);
                }
            }
        }
        if (!names.isEmpty()) {
            LOGGER.info("Breakers in @CircuitProtected without settings of their own use breakers.defaults: "
                    + String.join(", ", names)
                    + " (no key under breakers.instances.<name> sets anything for them, and an empty section"
                    + " such as " + names.iterator().next() + ": {} sets nothing;"
                    + " check the spelling if you meant a configured one)");
        }
    }

    private InvalidCircuitProtectedException rewritten(String annotated, String configured) {
        ProtectedMethods.Use use = methods.usedBy(annotated);
        return new InvalidCircuitProtectedException(
                use.beanClass(),
                use.method(),
                "the breaker '" + annotated
                        + "' has no configuration, while breakers.instances." + configured
                        + " configures a breaker that no"
                        + " @CircuitProtected uses; a key under breakers.instances written without brackets keeps only ASCII"
                        + " letters, digits, '-' and '_', and keys differing only in case are one, so '" + annotated
                        + "' may have been written and read as '" + configured + "'",
                List.of(),
                "Write the key in brackets, which keeps the name as it is: breakers.instances.[" + annotated
                        + "].<setting> (in YAML, under instances: write \"[" + annotated + "]\":).");
    }

    /** Whether the bean gets a subclass (CGLIB) proxy rather than an interface-based one. */
    private boolean needsClassProxy(Class<?> type, @Nullable String beanName) {
        if (beanFactory instanceof ConfigurableListableBeanFactory listable) {
            if (listable.containsBean(AopConfigUtils.AUTO_PROXY_CREATOR_BEAN_NAME)
                    && listable.getBean(AopConfigUtils.AUTO_PROXY_CREATOR_BEAN_NAME) instanceof ProxyConfig creator
                    && creator.isProxyTargetClass()) {
                return true;
            }
            if (beanName != null
                    && listable.containsBeanDefinition(beanName)
                    && AutoProxyUtils.shouldProxyTargetClass(listable, beanName)) {
                return true;
            }
        }
        for (Class<?> implemented : type.getInterfaces()) {
            if (implemented.getMethods().length > 0 && !implemented.getName().startsWith("org.springframework.")) {
                return false;
            }
        }
        return true;
    }
}
