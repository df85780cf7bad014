package io.breaker.benchmarks.spring;

import org.aspectj.lang.ProceedingJoinPoint;
import org.aspectj.lang.annotation.Around;
import org.aspectj.lang.annotation.Aspect;

/**
 * The plain-advice floor, which a CLOSED call through {@code @CircuitProtected} must not exceed: the
 * cheapest {@code @Around} advice with an {@code execution} pointcut (matched when the proxy is built,
 * nothing evaluated per call). It only proceeds.
 */
@Aspect
public class ExecutionAspect {

    @Around("execution(int io.breaker.benchmarks.spring.MarkedWholesaler.deliveryDays(String))")
    public Object proceed(ProceedingJoinPoint call) throws Throwable {
        return call.proceed();
    }
}
