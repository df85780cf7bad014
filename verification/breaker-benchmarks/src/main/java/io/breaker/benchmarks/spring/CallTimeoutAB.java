package io.breaker.benchmarks.spring;

import io.breaker.BreakerRegistry;
import io.breaker.spring.CircuitProtected;
import io.breaker.spring.autoconfigure.BreakerAutoConfiguration;
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
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.MapPropertySource;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * A same-run A/B of {@code call-timeout}: a CLOSED {@code @CircuitProtected} call of a breaker without
 * a call timeout, in an application where no breaker has one ({@code untimedAlone}) and in one where
 * another breaker of the same bean has one ({@code untimedNextToTimed}): the two must not differ,
 * since a breaker without a timeout takes the untimed path chosen at start-up. {@code timed} is the
 * call of the breaker with the timeout (a hand-off to a pool thread and back: what the feature costs
 * the breakers that use it). Both contexts run on an executor bean, so the run works on Java 17.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Threads(1)
public class CallTimeoutAB {

    private String isbn = "978-0-13-468599-1";

    @Benchmark
    public int untimedAlone(Alone side) {
        return side.wholesaler.untimed(isbn);
    }

    @Benchmark
    public int untimedNextToTimed(NextToTimed side) {
        return side.wholesaler.untimed(isbn);
    }

    @Benchmark
    public int timed(NextToTimed side) {
        return side.wholesaler.timed(isbn);
    }

    /** One bean, two breakers: {@code untimed} never has a call timeout, {@code timed} has one when configured. */
    public static class TwoBreakers {

        @CircuitProtected(name = "untimed")
        public int untimed(String isbn) {
            return Wholesale.deliveryDays(isbn);
        }

        @CircuitProtected(name = "timed")
        public int timed(String isbn) {
            return Wholesale.deliveryDays(isbn);
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration({AopAutoConfiguration.class, BreakerAutoConfiguration.class})
    static class Application {

        @Bean
        TwoBreakers twoBreakers() {
            return new TwoBreakers();
        }

        @Bean(destroyMethod = "shutdownNow")
        ExecutorService timedCalls() {
            return Executors.newCachedThreadPool();
        }
    }

    abstract static class Side {

        private AnnotationConfigApplicationContext context;
        TwoBreakers wholesaler;

        void start(boolean withTimeout) {
            Map<String, Object> properties = new HashMap<>();
            properties.put("breakers.defaults.minimum-number-of-calls", Wholesale.MINIMUM_CALLS);
            if (withTimeout) {
                properties.put("breakers.instances.timed.call-timeout", "2s");
                properties.put("breakers.instances.timed.call-timeout-executor", "timedCalls");
            }
            context = new AnnotationConfigApplicationContext();
            context.getEnvironment().getPropertySources().addFirst(new MapPropertySource("ab", properties));
            context.register(Application.class);
            context.refresh();
            wholesaler = context.getBean(TwoBreakers.class);
            if (!AopUtils.isCglibProxy(wholesaler)
                    || (context.getBean(BreakerRegistry.class)
                                            .breaker("timed")
                                            .getConfig()
                                            .getCallTimeout()
                                    != null)
                            != withTimeout) {
                throw new IllegalStateException("the A/B contexts were not set up as intended");
            }
        }

        @TearDown(Level.Trial)
        public void stop() {
            context.close();
        }
    }

    @State(Scope.Benchmark)
    public static class Alone extends Side {

        @Setup(Level.Trial)
        public void create() {
            start(false);
        }
    }

    @State(Scope.Benchmark)
    public static class NextToTimed extends Side {

        @Setup(Level.Trial)
        public void create() {
            start(true);
        }
    }
}
