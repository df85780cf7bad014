package io.breaker.spring.autoconfigure;

import io.breaker.BreakerRegistry;
import io.breaker.CallTimeout;
import io.breaker.CircuitBreaker;
import io.breaker.spring.BreakerNames;
import io.breaker.spring.call.CallContext;
import io.breaker.spring.call.CallTimeouts;
import io.breaker.spring.config.InvalidBreakerPropertyException;
import io.breaker.spring.config.PropertyValues;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.BeanNotOfRequiredTypeException;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.NoSuchBeanDefinitionException;
import org.springframework.core.task.TaskDecorator;
import org.springframework.util.StringUtils;

import java.util.List;
import java.util.concurrent.Executor;

/**
 * Reads {@code call-timeout-executor} of {@code breakers.defaults} and of each instance into
 * {@link CallTimeouts}, and checks at start-up that every configured breaker with a
 * {@code call-timeout} can run its calls: its executor bean exists and is an {@link Executor}, or,
 * with none named, the JVM has virtual threads. A breaker named only in {@code @CircuitProtected} is
 * checked when its first method is resolved, which is at start-up too. An instance that leaves
 * {@code call-timeout-executor} unset or empty takes the one of the defaults.
 */
final class BreakerCallTimeouts {

    private static final String DEFAULTS = "breakers.defaults.";

    private BreakerCallTimeouts() {}

    static CallTimeouts of(
            BreakerProperties properties,
            BreakerRegistry registry,
            ListableBeanFactory beans,
            @Nullable TaskDecorator applicationDecorator) {
        CallTimeouts timeouts = new CallTimeouts(
                breaker -> executorFor(properties, beans, breaker), CallContext.decorator(applicationDecorator));
        for (String name : properties.getInstances().keySet()) {
            registry.find(name).ifPresent(timeouts::of);
        }
        return timeouts;
    }

    private static @Nullable Executor executorFor(
            BreakerProperties properties, ListableBeanFactory beans, CircuitBreaker breaker) {
        String instance = "breakers.instances." + BreakerNames.propertyKey(breaker.getName()) + ".";
        BreakerProperties.Settings own = properties.getInstances().get(breaker.getName());
        boolean ownExecutor = own != null && StringUtils.hasText(own.getCallTimeoutExecutor());
        String beanName = ownExecutor
                ? own.getCallTimeoutExecutor()
                : StringUtils.hasText(properties.getDefaults().getCallTimeoutExecutor())
                        ? properties.getDefaults().getCallTimeoutExecutor()
                        : null;
        String executorProperty = (ownExecutor ? instance : DEFAULTS) + "call-timeout-executor";
        if (beanName == null) {
            if (!CallTimeout.virtualThreadsAvailable()) {
                String timeoutProperty = (own != null && own.getCallTimeout() != null)
                                || properties.getDefaults().getCallTimeout() == null
                        ? instance + "call-timeout"
                        : DEFAULTS + "call-timeout";
                throw new InvalidBreakerPropertyException(
                        timeoutProperty,
                        PropertyValues.of(breaker.getConfig().getCallTimeout()),
                        "this application runs on Java " + Runtime.version().feature()
                                + ", which has no virtual threads to run timed calls on, and no executor is named",
                        "none (no call timeout), or keep it and either name an Executor bean in '" + instance
                                + "call-timeout-executor' (or '" + DEFAULTS + "call-timeout-executor'), or run the"
                                + " application on Java 21 or later, where each timed call gets a virtual thread",
                        null);
            }
            return null;
        }
        try {
            return beans.getBean(beanName, Executor.class);
        } catch (BeanNotOfRequiredTypeException notAnExecutor) {
            throw new InvalidBreakerPropertyException(
                    executorProperty,
                    beanName,
                    "the bean is a " + notAnExecutor.getActualType().getName()
                            + ", not a java.util.concurrent.Executor",
                    executors(beans),
                    notAnExecutor);
        } catch (NoSuchBeanDefinitionException missing) {
            throw new InvalidBreakerPropertyException(
                    executorProperty, beanName, "no such bean", executors(beans), missing);
        }
    }

    private static String executors(ListableBeanFactory beans) {
        List<String> names = List.of(beans.getBeanNamesForType(Executor.class, false, false));
        return "the name of a bean that implements java.util.concurrent.Executor"
                + (names.isEmpty() ? " (there is none)" : ": one of " + String.join(", ", names));
    }
}
