package io.breaker.spring.aop;

import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;

import java.lang.reflect.AccessibleObject;
import java.lang.reflect.Method;

/** An invocation that is another one but for what {@link #proceed()} does: for the observed calls. */
abstract class DelegatingInvocation implements MethodInvocation {

    /** The invocation this one stands for. */
    final MethodInvocation invocation;

    DelegatingInvocation(MethodInvocation invocation) {
        this.invocation = invocation;
    }

    @Override
    public final Method getMethod() {
        return invocation.getMethod();
    }

    @Override
    public final @Nullable Object[] getArguments() {
        return invocation.getArguments();
    }

    @Override
    public final @Nullable Object getThis() {
        return invocation.getThis();
    }

    @Override
    public final AccessibleObject getStaticPart() {
        return invocation.getStaticPart();
    }
}
