package io.breaker.spring.aop;

import io.breaker.BreakerRegistry;
import io.breaker.CallTimeoutException;
import io.breaker.CircuitBreaker;
import io.breaker.spring.CircuitProtected;
import io.breaker.spring.autoconfigure.BreakerAutoConfiguration;
import io.breaker.spring.autoconfigure.BreakerFailureAnalyzer;
import io.breaker.spring.test.BootLine;
import org.aspectj.lang.ProceedingJoinPoint;
import org.aspectj.lang.annotation.Around;
import org.aspectj.lang.annotation.Aspect;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.slf4j.MDC;
import org.springframework.boot.Banner;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import reactor.core.publisher.Mono;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@code call-timeout} on {@code @CircuitProtected} methods, in an application: a hung plain method
 * is given up (fallback, failure counted, its thread interrupted) with the caller's security context
 * and MDC on the thread that ran it; a {@code Mono} and a {@code CompletableFuture} get the same
 * timeout; a breaker without one keeps its untimed path; what cannot work stops start-up (Java 17
 * without an executor, a {@code @Transactional} method) or the call (a caller inside a transaction).
 * The calls that hang wait for a 100 ms timeout; nothing asserts how long anything took.
 */
@Tag(BootLine.TAG)
class CallTimeoutAspectTest {

    private static final String[] PROPERTIES = {
        "breakers.instances.wholesaler.call-timeout=100ms",
        "breakers.instances.wholesaler.call-timeout-executor=timedCalls",
        "breakers.instances.wholesaler.minimum-number-of-calls=100",
        "breakers.aspect-order=0" // outside Watching, which then runs on the timed thread
    };

    /** One application for the calls; the start-up failures get contexts of their own. */
    private static ConfigurableApplicationContext context;

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration({AopAutoConfiguration.class, BreakerAutoConfiguration.class})
    static class Application {

        @Bean(destroyMethod = "shutdownNow")
        ExecutorService timedCalls() {
            return Executors.newCachedThreadPool();
        }

        @Bean
        Wholesaler wholesaler() {
            return new Wholesaler();
        }

        @Bean
        Watching watching() {
            return new Watching();
        }
    }

    /** An application's own AspectJ advice inside the breaker's: it needs the invocation exposed on its thread. */
    @Aspect
    static class Watching {

        static final AtomicReference<Thread> thread = new AtomicReference<>();

        @Around("execution(* io.breaker.spring.aop.CallTimeoutAspectTest.Wholesaler.days(..))")
        Object watch(ProceedingJoinPoint call) throws Throwable {
            thread.set(Thread.currentThread());
            return call.proceed();
        }
    }

    @BeforeAll
    static void start() {
        context = new SpringApplicationBuilder(Application.class)
                .web(WebApplicationType.NONE)
                .bannerMode(Banner.Mode.OFF)
                .properties(PROPERTIES)
                .run();
    }

    @AfterAll
    static void stop() {
        context.close();
    }

    @BeforeEach
    void forget() {
        Seen.reset();
    }

    private static Wholesaler wholesaler() {
        return context.getBean(Wholesaler.class);
    }

    private static CircuitBreaker wholesalerBreaker() {
        return context.getBean(BreakerRegistry.class).breaker("wholesaler");
    }

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, BreakerAutoConfiguration.class))
            .withBean("timedCalls", ExecutorService.class, Executors::newCachedThreadPool)
            .withBean(Wholesaler.class)
            .withPropertyValues(PROPERTIES);

    /** What the protected methods saw; static, as the test reads it past the bean's proxy. */
    static class Seen {
        static volatile CountDownLatch interrupted = new CountDownLatch(1);
        static final AtomicReference<Map<String, String>> mdc = new AtomicReference<>();
        static final AtomicReference<Authentication> user = new AtomicReference<>();
        static final AtomicReference<Thread> thread = new AtomicReference<>();

        static void reset() {
            interrupted = new CountDownLatch(1);
            mdc.set(null);
            user.set(null);
            thread.set(null);
        }
    }

    static class Wholesaler {

        @CircuitProtected(name = "wholesaler", fallbackMethod = "unknownDays")
        public String days(String isbn) {
            Seen.mdc.set(MDC.getCopyOfContextMap());
            Seen.user.set(SecurityContextHolder.getContext().getAuthentication());
            Seen.thread.set(Thread.currentThread());
            if (isbn.equals("hangs")) {
                try {
                    new CountDownLatch(1).await(); // a dependency that never answers
                } catch (InterruptedException cancelled) {
                    Seen.interrupted.countDown();
                    Thread.currentThread().interrupt();
                }
            }
            return "2";
        }

        String unknownDays(String isbn, CallTimeoutException timedOut) {
            return "unknown after " + timedOut.getTimeout().toMillis() + " ms";
        }

        @CircuitProtected(name = "wholesaler", fallbackMethod = "unknownLater")
        public Mono<String> daysLater(String isbn) {
            return Mono.never();
        }

        Mono<String> unknownLater(String isbn, CallTimeoutException timedOut) {
            return Mono.just("unknown");
        }

        @CircuitProtected(name = "wholesaler")
        public CompletableFuture<String> daysAsync(String isbn) {
            return new CompletableFuture<>();
        }

        @CircuitProtected(name = "catalogue")
        public String title(String isbn) {
            Seen.thread.set(Thread.currentThread());
            return "Effective Java";
        }
    }

    static class Ledger {

        @Transactional
        @CircuitProtected(name = "wholesaler")
        public void book(String isbn) {}
    }

    @Test
    void aHungCallIsGivenUpAndAnsweredByTheFallbackWithTheCallersContext() throws Exception {
        int failedBefore = wholesalerBreaker().getMetrics().failedCalls();
        MDC.put("request", "r-42");
        SecurityContextHolder.getContext()
                .setAuthentication(UsernamePasswordAuthenticationToken.authenticated("reader", null, List.of()));
        try {
            assertThat(wholesaler().days("hangs")).isEqualTo("unknown after 100 ms");
        } finally {
            MDC.clear();
            SecurityContextHolder.clearContext();
        }

        assertThat(Seen.interrupted.await(10, TimeUnit.SECONDS))
                .as("the call's thread was interrupted")
                .isTrue();
        assertThat(wholesalerBreaker().getMetrics().failedCalls()).isEqualTo(failedBefore + 1);
        assertThat(wholesalerBreaker().getLastFailureType()).isEqualTo(CallTimeoutException.class.getName());
        assertThat(Seen.thread.get()).isNotSameAs(Thread.currentThread());
        assertThat(Seen.mdc.get()).containsEntry("request", "r-42");
        assertThat(Seen.user.get().getName()).isEqualTo("reader");
    }

    @Test
    void aCallWithinTheTimeoutAnswersAndIsASuccessWithoutLeakingContextIntoThePool() {
        int callsBefore = wholesalerBreaker().getMetrics().calls();
        int failedBefore = wholesalerBreaker().getMetrics().failedCalls();
        MDC.put("request", "r-1");
        try {
            assertThat(wholesaler().days("9780134685991")).isEqualTo("2");
        } finally {
            MDC.clear();
        }
        assertThat(Seen.mdc.get()).containsEntry("request", "r-1");
        assertThat(Watching.thread.get())
                .as("the inner aspect ran on the timed thread")
                .isSameAs(Seen.thread.get());
        assertThat(Seen.thread.get()).isNotSameAs(Thread.currentThread());
        assertThat(wholesaler().days("9780134685991")).isEqualTo("2");

        assertThat(Seen.mdc.get()).as("the second caller had no MDC").isNullOrEmpty();
        assertThat(wholesalerBreaker().getMetrics().calls()).isEqualTo(callsBefore + 2);
        assertThat(wholesalerBreaker().getMetrics().failedCalls()).isEqualTo(failedBefore);
    }

    @Test
    void aBreakerWithoutCallTimeoutRunsTheMethodOnTheCallersThread() throws Exception {
        assertThat(wholesaler().title("9780134685991")).isEqualTo("Effective Java");

        assertThat(Seen.thread.get()).isSameAs(Thread.currentThread());
        assertThat(context.getBean(ProtectedMethods.class)
                        .callFor(Wholesaler.class, Wholesaler.class.getMethod("title", String.class)))
                .isInstanceOf(SyncCall.class);
    }

    @Test
    void aMonoThatNeverSignalsTimesOutIntoItsFallback() {
        int failedBefore = wholesalerBreaker().getMetrics().failedCalls();

        assertThat(wholesaler().daysLater("9780134685991").block(Duration.ofSeconds(10)))
                .isEqualTo("unknown");
        assertThat(wholesalerBreaker().getMetrics().failedCalls()).isEqualTo(failedBefore + 1);
    }

    @Test
    void aFutureThatNeverCompletesFailsWithTheTimeout() {
        int failedBefore = wholesalerBreaker().getMetrics().failedCalls();

        CompletableFuture<String> days = wholesaler().daysAsync("9780134685991");

        assertThatThrownBy(() -> days.get(10, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(CallTimeoutException.class);
        assertThat(wholesalerBreaker().getMetrics().failedCalls()).isEqualTo(failedBefore + 1);
    }

    @Test
    void aCallInsideATransactionIsRefusedBeforeItRuns() {
        TransactionSynchronizationManager.setActualTransactionActive(true);
        try {
            assertThatThrownBy(() -> wholesaler().days("9780134685991"))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("days(String)")
                    .hasMessageContaining("inside a transaction")
                    .hasMessageContaining("'wholesaler' has a call-timeout");
        } finally {
            TransactionSynchronizationManager.setActualTransactionActive(false);
        }
        assertThat(Seen.thread.get()).as("the method did not run").isNull();
    }

    @Test
    void aTransactionalMethodWithACallTimeoutStopsStartUp() {
        AtomicReference<FailureAnalysis> analysis = new AtomicReference<>();
        runner.withBean(Ledger.class).run(application -> {
            assertThat(application).hasFailed();
            analysis.set(new BreakerFailureAnalyzer().analyze(application.getStartupFailure()));
        });

        assertThat(analysis.get().getDescription())
                .contains(Ledger.class.getName() + ".book(String)")
                .contains("runs in a transaction (@Transactional)")
                .contains("'wholesaler' has a call-timeout");
        assertThat(analysis.get().getAction()).contains("Remove call-timeout from the breaker 'wholesaler'");
    }

    @Test
    void anExecutorBeanThatDoesNotExistStopsStartUpNamingTheOnesThatDo() {
        AtomicReference<FailureAnalysis> analysis = new AtomicReference<>();
        runner.withPropertyValues("breakers.instances.wholesaler.call-timeout-executor=timedCals")
                .run(application -> {
                    assertThat(application).hasFailed();
                    analysis.set(new BreakerFailureAnalyzer().analyze(application.getStartupFailure()));
                });

        assertThat(analysis.get().getDescription())
                .contains("'breakers.instances.wholesaler.call-timeout-executor'")
                .contains("'timedCals'")
                .contains("no such bean");
        assertThat(analysis.get().getAction())
                .contains("java.util.concurrent.Executor")
                .contains("timedCalls");
    }

    @Test
    void onJava17WithoutAnExecutorStartUpFailsNamingThePropertyTheJavaVersionAndTheWaysOut() {
        assumeTrue(Runtime.version().feature() < 21, "this JVM has virtual threads");
        AtomicReference<FailureAnalysis> analysis = new AtomicReference<>();
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, BreakerAutoConfiguration.class))
                .withPropertyValues("breakers.instances.wholesaler.call-timeout=2s")
                .run(application -> {
                    assertThat(application).hasFailed();
                    analysis.set(new BreakerFailureAnalyzer().analyze(application.getStartupFailure()));
                });

        System.out.println(
                analysis.get().getDescription() + "\n" + analysis.get().getAction());
        assertThat(analysis.get().getDescription())
                .contains("'breakers.instances.wholesaler.call-timeout'")
                .contains("'2s'")
                .contains("Java " + Runtime.version().feature() + ", which has no virtual threads");
        assertThat(analysis.get().getAction())
                .contains("'breakers.instances.wholesaler.call-timeout-executor'")
                .contains("Java 21 or later")
                .contains("none (no call timeout)");
    }

    @Test
    void onJava21AndLaterWithoutAnExecutorEachCallGetsAVirtualThread() {
        assumeTrue(Runtime.version().feature() >= 21, "virtual threads need Java 21 or later");
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, BreakerAutoConfiguration.class))
                .withBean(Wholesaler.class)
                .withPropertyValues("breakers.instances.wholesaler.call-timeout=100ms")
                .run(application -> {
                    Wholesaler wholesaler = application.getBean(Wholesaler.class);

                    assertThat(wholesaler.days("hangs")).isEqualTo("unknown after 100 ms");
                    assertThat(Seen.interrupted.await(10, TimeUnit.SECONDS)).isTrue();
                    assertThat(Seen.thread.get().getName()).startsWith("breaker-timeout-wholesaler-");
                });
    }

    @Test
    void theExecutorNamedInTheDefaultsServesEveryBreaker() {
        runner.withPropertyValues(
                        "breakers.instances.wholesaler.call-timeout-executor=",
                        "breakers.defaults.call-timeout-executor=timedCalls",
                        "breakers.instances.catalogue.call-timeout=1s")
                .run(application -> {
                    assertThat(application).hasNotFailed();
                    assertThat(application.getBean("timedCalls")).isInstanceOf(Executor.class);
                    assertThat(application.getBean(Wholesaler.class).days("9780134685991"))
                            .isEqualTo("2");
                    assertThat(application.getBean(Wholesaler.class).title("9780134685991"))
                            .isEqualTo("Effective Java");
                    assertThat(Seen.thread.get())
                            .as("catalogue's call ran on the pool")
                            .isNotSameAs(Thread.currentThread());
                });
    }
}
