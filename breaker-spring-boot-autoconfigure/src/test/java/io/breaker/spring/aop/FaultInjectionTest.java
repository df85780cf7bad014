package io.breaker.spring.aop;

import com.sun.net.httpserver.HttpServer;
import io.breaker.BreakerRegistry;
import io.breaker.CallTimeoutException;
import io.breaker.CircuitBreaker;
import io.breaker.InjectedFaultException;
import io.breaker.State;
import io.breaker.spring.CircuitProtected;
import io.breaker.spring.autoconfigure.BreakerAutoConfiguration;
import io.breaker.spring.autoconfigure.BreakerConfigCustomizer;
import io.breaker.spring.metrics.BreakerMeterBinder;
import io.breaker.spring.test.BootLine;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Fault injection through {@code breakers.faults.<name>}, in an application whose protected methods
 * call a real HTTP dependency (the JDK's HTTP server) that stays healthy: injected failures open a
 * breaker while the dependency answered every request it got with a 200, and every kind of protected
 * method (plain, timed, {@code CompletionStage}, {@code Mono}, {@code Flux}) is failed or delayed before
 * it runs. Nothing asserts how long anything took: an injected latency shows as a slow call, or is cut
 * by the call timeout.
 */
@Tag(BootLine.TAG)
@ExtendWith(OutputCaptureExtension.class)
class FaultInjectionTest {

    private static final long SEED = 20261202L;

    private static HttpServer server;
    private static final AtomicInteger requests = new AtomicInteger();

    @BeforeAll
    static void startDependency() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/stock", exchange -> {
            requests.incrementAndGet();
            byte[] body = "42".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
    }

    @AfterAll
    static void stopDependency() {
        server.stop(0);
    }

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, BreakerAutoConfiguration.class))
            .withUserConfiguration(App.class)
            .withBean("timedCalls", ExecutorService.class, Executors::newCachedThreadPool);

    @Configuration(proxyBeanMethods = false)
    static class App {

        @Bean
        Wholesaler wholesaler() {
            return new Wholesaler(
                    URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/stock"));
        }

        /** The draws of the wholesaler's fault injection, from a fixed seed: the same run every time. */
        @Bean
        BreakerConfigCustomizer seededFaults() {
            SplittableRandom random = new SplittableRandom(SEED);
            return BreakerConfigCustomizer.of("wholesaler", builder -> builder.faultRandom(random::nextDouble));
        }
    }

    static class Wholesaler {

        private final HttpClient http = HttpClient.newHttpClient();
        private final URI stock;
        private final List<Thread> ranOn = new CopyOnWriteArrayList<>();

        Wholesaler(URI stock) {
            this.stock = stock;
        }

        @CircuitProtected(name = "wholesaler", fallbackMethod = "cached")
        public String stock() throws IOException, InterruptedException {
            return get();
        }

        public String cached(Throwable failure) {
            return "cached";
        }

        @CircuitProtected(name = "timed")
        public String stockTimed() throws IOException, InterruptedException {
            return get();
        }

        @CircuitProtected(name = "async")
        public CompletableFuture<String> stockLater() {
            ranOn.add(Thread.currentThread());
            return http.sendAsync(request(), HttpResponse.BodyHandlers.ofString())
                    .thenApply(HttpResponse::body);
        }

        @CircuitProtected(name = "reactive")
        public Mono<String> stockMono() {
            ranOn.add(Thread.currentThread());
            return Mono.fromFuture(() -> http.sendAsync(request(), HttpResponse.BodyHandlers.ofString()))
                    .map(HttpResponse::body);
        }

        @CircuitProtected(name = "reactive")
        public Flux<String> stockFlux() {
            ranOn.add(Thread.currentThread());
            return stockMono().flux();
        }

        /** The threads the asynchronous methods ran on (a method: the proxy has no state of its own). */
        public List<Thread> ranOn() {
            return ranOn;
        }

        private String get() throws IOException, InterruptedException {
            HttpResponse<String> response = http.send(request(), HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new IOException("status " + response.statusCode());
            }
            return response.body();
        }

        private HttpRequest request() {
            return HttpRequest.newBuilder(stock).timeout(Duration.ofSeconds(30)).build();
        }
    }

    @Test
    void halfTheCallsFailedByInjectionOpenTheBreakerWhileTheDependencyStaysHealthy(CapturedOutput output) {
        runner.withPropertyValues(
                        "breakers.instances.wholesaler.sliding-window-size=10",
                        "breakers.instances.wholesaler.minimum-number-of-calls=10",
                        "breakers.instances.wholesaler.failure-rate-threshold=50",
                        "breakers.faults.wholesaler.failure-rate=50")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    BreakerRegistry registry = context.getBean(BreakerRegistry.class);
                    CircuitBreaker breaker = registry.breaker("wholesaler");
                    SimpleMeterRegistry meters = new SimpleMeterRegistry();
                    new BreakerMeterBinder(registry).bindTo(meters);
                    Wholesaler wholesaler = context.getBean(Wholesaler.class);
                    int before = requests.get();

                    int calls = 0;
                    int fromTheDependency = 0;
                    while (breaker.getState() == State.CLOSED && calls < 1000) {
                        calls++;
                        if (wholesaler.stock().equals("42")) {
                            fromTheDependency++;
                        }
                    }

                    assertThat(breaker.getState()).as("seed %d", SEED).isEqualTo(State.OPEN);
                    assertThat(breaker.getLastFailureType()).isEqualTo(InjectedFaultException.class.getName());
                    // Every request the dependency got was answered with a 200 and reached the caller.
                    assertThat(requests.get() - before).isEqualTo(fromTheDependency);
                    double injected = meters.get(BreakerMeterBinder.FAULTS_INJECTED)
                            .tag("name", "wholesaler")
                            .tag("kind", "failure")
                            .counter()
                            .count();
                    assertThat((int) injected)
                            .isEqualTo(calls - fromTheDependency)
                            .isPositive();
                    // Open: the fallback answers and the dependency is left alone.
                    assertThat(wholesaler.stock()).isEqualTo("cached");
                    assertThat(requests.get() - before).isEqualTo(fromTheDependency);
                    assertThat(output)
                            .contains("breaker=wholesaler faults are injected into its calls: failureRate=50"
                                    + " exception=io.breaker.InjectedFaultException latency=none latencyRate=100");
                });
    }

    @Test
    void aPlainMethodFailsBeforeItRunsWithTheConfiguredException() {
        runner.withPropertyValues(
                        "breakers.faults.timed.failure-rate=100",
                        "breakers.faults.timed.exception=java.net.ConnectException")
                .run(context -> {
                    int before = requests.get();
                    assertThatThrownBy(() -> context.getBean(Wholesaler.class).stockTimed())
                            .isExactlyInstanceOf(java.net.ConnectException.class)
                            .hasMessageContaining("'timed'");
                    assertThat(requests.get()).isEqualTo(before);
                    assertThat(context.getBean(BreakerRegistry.class)
                                    .breaker("timed")
                                    .getMetrics()
                                    .failedCalls())
                            .isEqualTo(1);
                });
    }

    @Test
    void anInjectedLatencyOnATimedCallIsCutByTheCallTimeoutBeforeTheMethodRuns() {
        runner.withPropertyValues(
                        "breakers.instances.timed.call-timeout=100ms",
                        "breakers.instances.timed.call-timeout-executor=timedCalls",
                        "breakers.faults.timed.latency=10m")
                .run(context -> {
                    int before = requests.get();
                    assertThatThrownBy(() -> context.getBean(Wholesaler.class).stockTimed())
                            .isInstanceOf(CallTimeoutException.class);
                    assertThat(requests.get()).isEqualTo(before);
                });
    }

    @Test
    void aCompletionStageGetsAFailedFutureOrIsDelayedWithoutBlockingTheCaller() {
        runner.withPropertyValues(
                        "breakers.instances.async.slow-call-duration-threshold=50ms",
                        "breakers.faults.async.latency=100ms")
                .run(context -> {
                    Wholesaler wholesaler = context.getBean(Wholesaler.class);
                    CircuitBreaker breaker =
                            context.getBean(BreakerRegistry.class).breaker("async");

                    assertThat(wholesaler.stockLater().get(30, TimeUnit.SECONDS))
                            .isEqualTo("42");

                    assertThat(wholesaler.ranOn()).hasSize(1).doesNotContain(Thread.currentThread());
                    assertThat(breaker.getMetrics().slowCalls()).isEqualTo(1);
                });
        runner.withPropertyValues("breakers.faults.async.failure-rate=100").run(context -> {
            int before = requests.get();
            CompletableFuture<String> future = context.getBean(Wholesaler.class).stockLater();

            assertThatThrownBy(() -> future.get(30, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class)
                    .hasCauseInstanceOf(InjectedFaultException.class);
            assertThat(requests.get()).isEqualTo(before);
            assertThat(context.getBean(BreakerRegistry.class)
                            .breaker("async")
                            .getMetrics()
                            .failedCalls())
                    .isEqualTo(1);
        });
    }

    @Test
    void aMonoOrFluxSignalsTheInjectedFailureOrIsDelayedOnReactorsScheduler() {
        runner.withPropertyValues("breakers.faults.reactive.failure-rate=100").run(context -> {
            Wholesaler wholesaler = context.getBean(Wholesaler.class);
            int before = requests.get();

            assertThatThrownBy(() -> wholesaler.stockMono().block(Duration.ofSeconds(30)))
                    .isInstanceOf(InjectedFaultException.class);
            assertThatThrownBy(() -> wholesaler.stockFlux().blockLast(Duration.ofSeconds(30)))
                    .isInstanceOf(InjectedFaultException.class);

            assertThat(requests.get()).isEqualTo(before);
            assertThat(context.getBean(BreakerRegistry.class)
                            .breaker("reactive")
                            .getMetrics()
                            .failedCalls())
                    .isEqualTo(2);
        });
        runner.withPropertyValues(
                        "breakers.instances.reactive.slow-call-duration-threshold=50ms",
                        "breakers.faults.reactive.latency=100ms")
                .run(context -> {
                    Wholesaler wholesaler = context.getBean(Wholesaler.class);
                    wholesaler.ranOn().clear();

                    assertThat(wholesaler.stockMono().block(Duration.ofSeconds(30)))
                            .isEqualTo("42");

                    assertThat(wholesaler.ranOn()).hasSize(1);
                    assertThat(wholesaler.ranOn().get(0).getName()).startsWith("parallel-");
                    assertThat(context.getBean(BreakerRegistry.class)
                                    .breaker("reactive")
                                    .getMetrics()
                                    .slowCalls())
                            .isEqualTo(1);
                });
    }

    @Test
    void aBadFaultValueStopsStartUpNamingThePropertyAndTheAllowedValues() {
        runner.withPropertyValues("breakers.faults.wholesaler.failure-rate=150").run(context -> {
            assertThat(context).hasFailed();
            Throwable failure = context.getStartupFailure();
            while (failure.getCause() != null
                    && !(failure instanceof io.breaker.spring.config.InvalidBreakerPropertyException)) {
                failure = failure.getCause();
            }
            assertThat(failure.getMessage())
                    .contains("breakers.faults.wholesaler.failure-rate", "150", "a number in [0, 100]");
        });
        runner.withPropertyValues("breakers.faults.wholesaler.exception=com.example.Nope")
                .run(context -> assertThat(context)
                        .getFailure()
                        .hasStackTraceContaining("breakers.faults.wholesaler.exception")
                        .hasStackTraceContaining("no such class on the classpath"));
        runner.withPropertyValues("breakers.faults.wholesaler.failure-rat=5")
                .run(context -> assertThat(context)
                        .getFailure()
                        .hasStackTraceContaining("breakers.faults.wholesaler.failure-rat")
                        .hasStackTraceContaining("breakers.faults.wholesaler.failure-rate"));
    }

    @Test
    void withoutAFaultsSectionNothingIsInjected(CapturedOutput output) {
        runner.run(context -> {
            int before = requests.get();
            assertThat(context.getBean(Wholesaler.class).stock()).isEqualTo("42");
            assertThat(requests.get()).isEqualTo(before + 1);
            assertThat(context.getBean(BreakerRegistry.class)
                            .breaker("wholesaler")
                            .getConfig()
                            .isFaultInjectionEnabled())
                    .isFalse();
            assertThat(output).doesNotContain("faults are injected");
        });
    }
}
