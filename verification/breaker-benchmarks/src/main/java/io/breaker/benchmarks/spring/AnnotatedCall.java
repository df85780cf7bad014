package io.breaker.benchmarks.spring;

import io.breaker.BreakerRegistry;
import io.breaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
import org.springframework.aop.support.AopUtils;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;

import java.io.IOException;
import java.util.concurrent.TimeUnit;

/**
 * One call of the same method, {@link Wholesale#deliveryDays}, through a Spring AOP proxy:
 * {@code @CircuitProtected} against resilience4j's {@code @CircuitBreaker} (resilience4j-spring-boot3 or
 * resilience4j-spring-boot4, the module of the jar's Spring Boot line), both with the same fallback, on a
 * CLOSED breaker (the method runs) and on an OPEN one (tripped by recorded failures at set-up; the
 * fallback answers). Then the floors: the call without any proxy, through a pass-through
 * {@code @Around} aspect with an {@code @annotation} pointcut, through one with an {@code execution}
 * pointcut (the plain-advice floor, which the CLOSED call must not exceed), and through a pass-through
 * advisor with a static pointcut.
 *
 * <p>Each side lives in its own minimal application context ({@link Contexts}), created once per
 * trial, so a benchmark starts only the context it measures. Set-up checks that every proxy is a
 * proxy and gives the expected answer, and tear-down that each breaker is still in the state it was
 * measured in: a run that measured something else fails rather than reports.
 *
 * <p>One thread by default; the suite also runs every benchmark with JMH's {@code -t 2} and {@code -t 4}.
 * Each side is {@link Scope#Benchmark}: every thread calls the same proxy, so they share its breakers,
 * as the threads of a web server do.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Threads(1)
public class AnnotatedCall {

    /** Read from a field, so the bare call cannot be folded into a constant. */
    private String isbn = "978-0-13-468599-1";

    @Benchmark
    public int bare(Bare side) {
        return side.wholesaler.deliveryDays(isbn);
    }

    @Benchmark
    public int aspectFloor(AspectFloor side) {
        return side.wholesaler.deliveryDays(isbn);
    }

    @Benchmark
    public int executionAspectFloor(ExecutionAspectFloor side) {
        return side.wholesaler.deliveryDays(isbn);
    }

    @Benchmark
    public int advisorFloor(AdvisorFloor side) {
        return side.wholesaler.deliveryDays(isbn);
    }

    @Benchmark
    public int circuitProtectedClosed(Ours side) {
        return side.wholesaler.deliveryDaysClosed(isbn);
    }

    @Benchmark
    public int circuitProtectedOpen(Ours side) {
        return side.wholesaler.deliveryDaysOpen(isbn);
    }

    @Benchmark
    public int r4jCircuitBreakerClosed(Resilience4j side) {
        return side.wholesaler.deliveryDaysClosed(isbn);
    }

    @Benchmark
    public int r4jCircuitBreakerOpen(Resilience4j side) {
        return side.wholesaler.deliveryDaysOpen(isbn);
    }

    /** The method called on a plain instance: no proxy, no context. */
    @State(Scope.Benchmark)
    public static class Bare {

        MarkedWholesaler wholesaler;

        @Setup(Level.Trial)
        public void create() {
            wholesaler = new MarkedWholesaler();
        }
    }

    /** {@code @CircuitProtected}: the starter's registry and advice. */
    @State(Scope.Benchmark)
    public static class Ours {

        private AnnotationConfigApplicationContext context;
        OurWholesaler wholesaler;
        private CircuitBreaker closed;
        private CircuitBreaker open;

        @Setup(Level.Trial)
        public void start() {
            context = Contexts.ours();
            wholesaler = proxied(context.getBean(OurWholesaler.class));
            BreakerRegistry registry = context.getBean(BreakerRegistry.class);
            closed = registry.find(Wholesale.CLOSED).orElseThrow();
            open = registry.find(Wholesale.OPEN).orElseThrow();
            for (CircuitBreaker breaker : new CircuitBreaker[] {closed, open}) {
                check(
                        breaker.getConfig().getSlidingWindowSize() == Wholesale.WINDOW_SIZE
                                && breaker.getConfig().getMinimumNumberOfCalls() == Wholesale.MINIMUM_CALLS,
                        "ours: the instance properties were not bound to " + breaker.getName());
            }
            IOException failure = new IOException("the wholesaler is down");
            for (int i = 0; i < Wholesale.MINIMUM_CALLS; i++) {
                open.onError(open.tryAcquirePermit(), 0L, failure);
            }
            checkStates();
            checkAnswers(wholesaler.deliveryDaysClosed("isbn"), wholesaler.deliveryDaysOpen("isbn"), "ours");
        }

        @TearDown(Level.Trial)
        public void stop() {
            try {
                checkStates();
            } finally {
                context.close();
            }
        }

        private void checkStates() {
            check(
                    closed.getState() == io.breaker.State.CLOSED && open.getState() == io.breaker.State.OPEN,
                    "ours: expected CLOSED and OPEN, were " + closed.getState() + " and " + open.getState());
        }
    }

    /** resilience4j's {@code @CircuitBreaker} (the module of this line): its registry and aspect. */
    @State(Scope.Benchmark)
    public static class Resilience4j {

        private AnnotationConfigApplicationContext context;
        TheirWholesaler wholesaler;
        private io.github.resilience4j.circuitbreaker.CircuitBreaker closed;
        private io.github.resilience4j.circuitbreaker.CircuitBreaker open;

        @Setup(Level.Trial)
        public void start() {
            context = Contexts.resilience4j();
            wholesaler = proxied(context.getBean(TheirWholesaler.class));
            CircuitBreakerRegistry registry = context.getBean(CircuitBreakerRegistry.class);
            closed = registry.find(Wholesale.CLOSED).orElseThrow();
            open = registry.find(Wholesale.OPEN).orElseThrow();
            for (io.github.resilience4j.circuitbreaker.CircuitBreaker breaker :
                    new io.github.resilience4j.circuitbreaker.CircuitBreaker[] {closed, open}) {
                check(
                        breaker.getCircuitBreakerConfig().getSlidingWindowSize() == Wholesale.WINDOW_SIZE
                                && breaker.getCircuitBreakerConfig().getMinimumNumberOfCalls()
                                        == Wholesale.MINIMUM_CALLS,
                        "resilience4j: the instance properties were not bound to " + breaker.getName());
            }
            IOException failure = new IOException("the wholesaler is down");
            for (int i = 0; i < Wholesale.MINIMUM_CALLS; i++) {
                open.tryAcquirePermission();
                open.onError(0L, TimeUnit.NANOSECONDS, failure);
            }
            checkStates();
            checkAnswers(wholesaler.deliveryDaysClosed("isbn"), wholesaler.deliveryDaysOpen("isbn"), "resilience4j");
        }

        @TearDown(Level.Trial)
        public void stop() {
            try {
                checkStates();
            } finally {
                context.close();
            }
        }

        private void checkStates() {
            check(
                    closed.getState() == io.github.resilience4j.circuitbreaker.CircuitBreaker.State.CLOSED
                            && open.getState() == io.github.resilience4j.circuitbreaker.CircuitBreaker.State.OPEN,
                    "resilience4j: expected CLOSED and OPEN, were " + closed.getState() + " and " + open.getState());
        }
    }

    /** A floor: {@link MarkedWholesaler} behind one pass-through advice, in a context of its own. */
    public abstract static class Floor {

        private AnnotationConfigApplicationContext context;
        MarkedWholesaler wholesaler;

        /** Starts this floor's context. */
        abstract AnnotationConfigApplicationContext startContext();

        @Setup(Level.Trial)
        public void start() {
            context = startContext();
            wholesaler = proxied(context.getBean(MarkedWholesaler.class));
        }

        @TearDown(Level.Trial)
        public void stop() {
            context.close();
        }
    }

    /** A pass-through {@code @Around} aspect with an {@code @annotation} pointcut. */
    @State(Scope.Benchmark)
    public static class AspectFloor extends Floor {

        @Override
        AnnotationConfigApplicationContext startContext() {
            return Contexts.aspectFloor();
        }
    }

    /** A pass-through {@code @Around} aspect with an {@code execution} pointcut (the plain-advice floor). */
    @State(Scope.Benchmark)
    public static class ExecutionAspectFloor extends Floor {

        @Override
        AnnotationConfigApplicationContext startContext() {
            return Contexts.executionAspectFloor();
        }
    }

    /** A pass-through advisor with a static pointcut. */
    @State(Scope.Benchmark)
    public static class AdvisorFloor extends Floor {

        @Override
        AnnotationConfigApplicationContext startContext() {
            return Contexts.advisorFloor();
        }
    }

    private static <T> T proxied(T bean) {
        check(AopUtils.isCglibProxy(bean), bean.getClass().getName() + " is not a CGLIB proxy");
        return bean;
    }

    private static void checkAnswers(int closedAnswer, int openAnswer, String side) {
        check(
                closedAnswer == Wholesale.deliveryDays("isbn") && openAnswer == Wholesale.FALLBACK_DAYS,
                side + ": expected the method's answer " + Wholesale.deliveryDays("isbn") + " and the fallback's "
                        + Wholesale.FALLBACK_DAYS + ", got " + closedAnswer + " and " + openAnswer);
    }

    private static void check(boolean condition, String failure) {
        if (!condition) {
            throw new IllegalStateException(failure);
        }
    }
}
