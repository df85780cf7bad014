package io.breaker.benchmarks.spring;

import org.aspectj.lang.ProceedingJoinPoint;
import org.aspectj.lang.annotation.Around;
import org.aspectj.lang.annotation.Aspect;

/**
 * The first floor: the cheapest {@code @Around} advice with an {@code @annotation} pointcut, the kind
 * resilience4j's aspect is. It only proceeds.
 */
@Aspect
public class PassThroughAspect {

    @Around("@annotation(io.breaker.benchmarks.spring.Marked)")
    public Object proceed(ProceedingJoinPoint call) throws Throwable {
        return call.proceed();
    }
}
