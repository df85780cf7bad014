package io.breaker.boot3;

import io.breaker.BreakerRegistry;
import io.breaker.spring.CircuitProtected;
import io.breaker.spring.autoconfigure.BreakerAutoConfiguration;
import io.breaker.spring.test.BootLine;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;
import org.springframework.retry.annotation.Backoff;
import org.springframework.retry.annotation.EnableRetry;
import org.springframework.retry.annotation.Retryable;

import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** With the default orders, Spring Retry's @Retryable wraps @CircuitProtected: every attempt passes the breaker. */
@Tag(BootLine.TAG)
class RetryOrderTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, BreakerAutoConfiguration.class))
            .withUserConfiguration(RetryOn.class)
            .withBean(Pricing.class);

    @Configuration(proxyBeanMethods = false)
    @EnableRetry
    static class RetryOn {}

    static class Pricing {

        private final AtomicInteger attempts = new AtomicInteger();

        public int attempts() {
            return attempts.get();
        }

        @Retryable(retryFor = IllegalStateException.class, maxAttempts = 3, backoff = @Backoff(delay = 1))
        @CircuitProtected(name = "pricing")
        public int price(String isbn) {
            attempts.incrementAndGet();
            throw new IllegalStateException("pricing down");
        }
    }

    @Test
    void byDefaultEachRetryAttemptPassesThroughTheBreaker() {
        runner.run(context -> {
            Pricing pricing = context.getBean(Pricing.class);
            assertThatThrownBy(() -> pricing.price("isbn")).isInstanceOf(IllegalStateException.class);
            assertThat(pricing.attempts()).isEqualTo(3);
            assertThat(context.getBean(BreakerRegistry.class)
                            .find("pricing")
                            .orElseThrow()
                            .getMetrics()
                            .failedCalls())
                    .isEqualTo(3);
        });
    }

    @Test
    void aLowerAspectOrderPutsTheBreakerOutsideTheRetries() {
        runner.withPropertyValues("breakers.aspect-order=0").run(context -> {
            Pricing pricing = context.getBean(Pricing.class);
            assertThatThrownBy(() -> pricing.price("isbn")).isInstanceOf(IllegalStateException.class);
            assertThat(pricing.attempts()).isEqualTo(3);
            assertThat(context.getBean(BreakerRegistry.class)
                            .find("pricing")
                            .orElseThrow()
                            .getMetrics()
                            .failedCalls())
                    .isEqualTo(1);
        });
    }
}
