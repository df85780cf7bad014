package io.breaker.benchmarks.spring;

import io.breaker.spring.CircuitProtected;
import io.breaker.spring.autoconfigure.BreakerAutoConfiguration;
import io.breaker.spring.autoconfigure.BreakerObservationAutoConfiguration;
import io.breaker.spring.observation.BreakerObservations;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
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

import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A same-run A/B/C of observations: a CLOSED {@code @CircuitProtected} call in an application without
 * an {@code ObservationRegistry} ({@code noRegistry}), with the no-op one ({@code noopRegistry}) and with
 * one that records ({@code recordingRegistry}, one handler that does nothing, so the numbers are the
 * observation's own and not a tracer's). The first two must not differ: with the no-op registry the
 * aspect chooses the unobserved call at start-up, as without one. The third is what the feature costs a
 * call when it is used.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Threads(1)
public class ObservationAB {

    private String isbn = "978-0-13-468599-1";

    @Benchmark
    public int noRegistry(NoRegistry side) {
        return side.wholesaler.deliveryDays(isbn);
    }

    @Benchmark
    public int noopRegistry(NoopRegistry side) {
        return side.wholesaler.deliveryDays(isbn);
    }

    @Benchmark
    public int recordingRegistry(RecordingRegistry side) {
        return side.wholesaler.deliveryDays(isbn);
    }

    /** The protected bean. */
    public static class Observed {

        @CircuitProtected(name = Wholesale.CLOSED)
        public int deliveryDays(String isbn) {
            return Wholesale.deliveryDays(isbn);
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration({
        AopAutoConfiguration.class,
        BreakerAutoConfiguration.class,
        BreakerObservationAutoConfiguration.class
    })
    static class Application {

        @Bean
        Observed observed() {
            return new Observed();
        }
    }

    /** A handler that supports every observation and does nothing with it. */
    static final class Idle implements ObservationHandler<Observation.Context> {

        @Override
        public boolean supportsContext(Observation.Context context) {
            return true;
        }
    }

    abstract static class Side {

        private AnnotationConfigApplicationContext context;
        Observed wholesaler;

        /** @param registry the application's registry, or {@code null} for none */
        void start(ObservationRegistry registry, boolean observed) {
            context = new AnnotationConfigApplicationContext();
            context.getEnvironment()
                    .getPropertySources()
                    .addFirst(new MapPropertySource(
                            "ab", Map.of("breakers.defaults.minimum-number-of-calls", Wholesale.MINIMUM_CALLS)));
            context.register(Application.class);
            if (registry != null) {
                context.registerBean(ObservationRegistry.class, () -> registry);
            }
            context.refresh();
            wholesaler = context.getBean(Observed.class);
            BreakerObservations observations =
                    context.getBeanProvider(BreakerObservations.class).getIfAvailable();
            boolean recording = observations != null && observations.ifRecording() != null;
            if (!AopUtils.isCglibProxy(wholesaler) || recording != observed) {
                throw new IllegalStateException("the A/B contexts were not set up as intended");
            }
        }

        @TearDown(Level.Trial)
        public void stop() {
            context.close();
        }
    }

    @State(Scope.Benchmark)
    public static class NoRegistry extends Side {

        @Setup(Level.Trial)
        public void create() {
            start(null, false);
        }
    }

    @State(Scope.Benchmark)
    public static class NoopRegistry extends Side {

        @Setup(Level.Trial)
        public void create() {
            start(ObservationRegistry.NOOP, false);
        }
    }

    @State(Scope.Benchmark)
    public static class RecordingRegistry extends Side {

        @Setup(Level.Trial)
        public void create() {
            ObservationRegistry registry = ObservationRegistry.create();
            registry.observationConfig().observationHandler(new Idle());
            start(registry, true);
        }
    }
}
