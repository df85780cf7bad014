package io.breaker.boot4;

import io.breaker.BreakerRegistry;
import io.breaker.CircuitOpenException;
import io.breaker.spring.CircuitProtected;
import io.breaker.spring.autoconfigure.BreakerAutoConfiguration;
import io.breaker.spring.test.BootLine;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;
import org.springframework.resilience.InvocationRejectedException;
import org.springframework.resilience.annotation.ConcurrencyLimit;
import org.springframework.resilience.annotation.EnableResilientMethods;
import org.springframework.resilience.annotation.Retryable;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Spring Framework 7's {@code @Retryable} and {@code @ConcurrencyLimit} ({@code @EnableResilientMethods})
 * next to {@code @CircuitProtected}: both wrap the breaker, whatever {@code breakers.aspect-order} says,
 * because Framework 7 puts its advice in front of the advisors a bean already has.
 */
@Tag(BootLine.TAG)
class ResilientMethodsCompositionTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, BreakerAutoConfiguration.class))
            .withUserConfiguration(ResilientMethodsOn.class)
            .withBean(Pricing.class);

    @Configuration(proxyBeanMethods = false)
    @EnableResilientMethods
    static class ResilientMethodsOn {}

    /** Read through methods: the test holds a proxy, whose own fields are never set. */
    static class Pricing {

        private final AtomicInteger attempts = new AtomicInteger();
        private final CountDownLatch entered = new CountDownLatch(1);
        private final CountDownLatch release = new CountDownLatch(1);

        public int attempts() {
            return attempts.get();
        }

        public boolean awaitEntered() throws InterruptedException {
            return entered.await(10, TimeUnit.SECONDS);
        }

        public void release() {
            release.countDown();
        }

        @Retryable(includes = IllegalStateException.class, maxRetries = 2, delay = 0)
        @CircuitProtected(name = "pricing")
        public int price(String isbn) {
            attempts.incrementAndGet();
            throw new IllegalStateException("pricing down");
        }

        /** Retries every exception (the default of @Retryable), the breaker's rejection included. */
        @Retryable(maxRetries = 2, delay = 0)
        @CircuitProtected(name = "stock")
        public int stockRetryingEverything(String isbn) {
            attempts.incrementAndGet();
            return 1;
        }

        /** What the README recommends: an open circuit is not retried. */
        @Retryable(excludes = CircuitOpenException.class, maxRetries = 2, delay = 0)
        @CircuitProtected(name = "stock")
        public int stock(String isbn) {
            attempts.incrementAndGet();
            return 1;
        }

        @ConcurrencyLimit(limit = 1, policy = ConcurrencyLimit.ThrottlePolicy.REJECT)
        @CircuitProtected(name = "covers")
        public int cover(String isbn) throws InterruptedException {
            entered.countDown();
            release.await(10, TimeUnit.SECONDS);
            return 1;
        }
    }

    @Test
    void eachRetryAttemptPassesThroughTheBreaker() {
        runner.run(context -> {
            Pricing pricing = context.getBean(Pricing.class);
            assertThatThrownBy(() -> pricing.price("isbn")).isInstanceOf(IllegalStateException.class);
            assertThat(pricing.attempts()).isEqualTo(3);
            assertThat(failedCalls(context.getBean(BreakerRegistry.class), "pricing"))
                    .isEqualTo(3);
        });
    }

    @Test
    void theRetryStaysOutsideTheBreakerEvenWithTheLowestAspectOrder() {
        runner.withPropertyValues("breakers.aspect-order=" + Integer.MIN_VALUE).run(context -> {
            Pricing pricing = context.getBean(Pricing.class);
            assertThatThrownBy(() -> pricing.price("isbn")).isInstanceOf(IllegalStateException.class);
            assertThat(failedCalls(context.getBean(BreakerRegistry.class), "pricing"))
                    .isEqualTo(3);
        });
    }

    @Test
    void anOpenCircuitIsNotRetriedWhenTheRetryExcludesIt() {
        runner.run(context -> {
            Pricing pricing = context.getBean(Pricing.class);
            BreakerRegistry registry = context.getBean(BreakerRegistry.class);
            registry.breaker("stock").forceOpen();

            assertThatThrownBy(() -> pricing.stock("isbn")).isInstanceOf(CircuitOpenException.class);
            assertThat(pricing.attempts()).isEqualTo(0);
            assertThat(registry.breaker("stock").getMetrics().notPermittedCalls())
                    .isEqualTo(1);
        });
    }

    @Test
    void aRetryOfEveryExceptionAlsoRetriesTheOpenCircuit() {
        runner.run(context -> {
            Pricing pricing = context.getBean(Pricing.class);
            BreakerRegistry registry = context.getBean(BreakerRegistry.class);
            registry.breaker("stock").forceOpen();

            assertThatThrownBy(() -> pricing.stockRetryingEverything("isbn")).isInstanceOf(CircuitOpenException.class);
            assertThat(pricing.attempts()).isEqualTo(0);
            assertThat(registry.breaker("stock").getMetrics().notPermittedCalls())
                    .isEqualTo(3);
        });
    }

    @Test
    void aCallTheConcurrencyLimitRejectsNeverReachesTheBreaker() {
        runner.run(context -> {
            Pricing pricing = context.getBean(Pricing.class);
            BreakerRegistry registry = context.getBean(BreakerRegistry.class);
            CompletableFuture<Integer> first = CompletableFuture.supplyAsync(() -> {
                try {
                    return pricing.cover("isbn");
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            });
            try {
                assertThat(pricing.awaitEntered()).isTrue();
                assertThatThrownBy(() -> pricing.cover("isbn")).isInstanceOf(InvocationRejectedException.class);
            } finally {
                pricing.release();
            }
            assertThat(first.get(10, TimeUnit.SECONDS)).isEqualTo(1);
            assertThat(registry.breaker("covers").getMetrics().calls()).isEqualTo(1);
            assertThat(registry.breaker("covers").getMetrics().failedCalls()).isZero();
        });
    }

    private static int failedCalls(BreakerRegistry registry, String name) {
        return registry.find(name).orElseThrow().getMetrics().failedCalls();
    }
}
