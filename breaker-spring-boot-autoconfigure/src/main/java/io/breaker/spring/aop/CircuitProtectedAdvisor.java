package io.breaker.spring.aop;

import io.breaker.spring.CircuitProtected;
import org.aopalliance.aop.Advice;
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;
import org.springframework.aop.Pointcut;
import org.springframework.aop.support.AbstractPointcutAdvisor;
import org.springframework.aop.support.StaticMethodMatcherPointcut;
import org.springframework.core.annotation.AnnotationUtils;

import java.lang.reflect.Method;

/**
 * Applies {@link CircuitProtected}. The pointcut is static: Spring matches it once per method when it
 * builds a proxy, never per call; the advice then finds the method's resolved call in
 * {@link ProtectedMethods}.
 */
public final class CircuitProtectedAdvisor extends AbstractPointcutAdvisor {

    private static final long serialVersionUID = 1L;

    private final transient Pointcut pointcut = new ProtectedMethodPointcut();
    private final transient Interceptor interceptor;

    /**
     * @param methods the resolved protected methods
     * @param order   the advice's order: lower runs further outside
     */
    public CircuitProtectedAdvisor(ProtectedMethods methods, int order) {
        this.interceptor = new Interceptor(methods);
        setOrder(order);
    }

    @Override
    public Pointcut getPointcut() {
        return pointcut;
    }

    @Override
    public Advice getAdvice() {
        return interceptor;
    }

    /** Matches methods carrying the annotation, or public methods of a class carrying it. */
    static final class ProtectedMethodPointcut extends StaticMethodMatcherPointcut {

        ProtectedMethodPointcut() {
            setClassFilter(type -> AnnotationUtils.isCandidateClass(type, CircuitProtected.class));
        }

        @Override
        public boolean matches(Method method, Class<?> targetClass) {
            return ProtectedMethods.findAnnotation(method, targetClass) != null;
        }
    }

    /** The advice: runs the call through its resolved breaker, fallback and return-type handling. */
    static final class Interceptor implements MethodInterceptor {

        private final ProtectedMethods methods;

        Interceptor(ProtectedMethods methods) {
            this.methods = methods;
        }

        @Override
        public @Nullable Object invoke(MethodInvocation invocation) throws Throwable {
            return methods.get(invocation).invoke(invocation);
        }
    }
}
