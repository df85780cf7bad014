package io.breaker.spring.aop;

import io.breaker.spring.CircuitProtected;
import io.breaker.spring.autoconfigure.BreakerAutoConfiguration;
import io.breaker.spring.autoconfigure.BreakerFailureAnalyzer;
import io.breaker.spring.test.BootLine;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/** A {@code @CircuitProtected} method that cannot be served stops start-up, naming the class, method and fix. */
@Tag(BootLine.TAG)
class CircuitProtectedStartupFailureTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, BreakerAutoConfiguration.class));

    static class MissingFallback {
        @CircuitProtected(name = "wholesaler", fallbackMethod = "deliveryFallbak")
        public int deliveryDays(String isbn) {
            return 3;
        }

        int deliveryFallback(String isbn) {
            return 14;
        }
    }

    static class WrongParameters {
        @CircuitProtected(name = "wholesaler", fallbackMethod = "deliveryFallback")
        public int deliveryDays(String isbn, int quantity) {
            return 3;
        }

        int deliveryFallback(String isbn) {
            return 14;
        }

        int deliveryFallback(String isbn, long quantity) {
            return 14;
        }
    }

    static class ExceptionParameterThatIsNotAThrowable {
        @CircuitProtected(name = "wholesaler", fallbackMethod = "deliveryFallback")
        public int deliveryDays(String isbn) {
            return 3;
        }

        int deliveryFallback(String isbn, String reason) {
            return 14;
        }
    }

    static class WrongReturnType {
        @CircuitProtected(name = "wholesaler", fallbackMethod = "deliveryFallback")
        public int deliveryDays(String isbn) {
            return 3;
        }

        String deliveryFallback(String isbn, IOException failure) {
            return "soon";
        }
    }

    static class PlainFallbackForAnAsyncMethod {
        @CircuitProtected(name = "quotes", fallbackMethod = "quoteFallback")
        public CompletableFuture<Integer> quote(String isbn) {
            return CompletableFuture.completedFuture(1);
        }

        Integer quoteFallback(String isbn) {
            return -1;
        }
    }

    static class FinalMethod {
        @CircuitProtected(name = "wholesaler")
        public final int deliveryDays(String isbn) {
            return 3;
        }
    }

    @Test
    void fallbackThatDoesNotExist() {
        FailureAnalysis analysis = failureWith(MissingFallback.class);
        assertThat(analysis.getDescription())
                .contains(MissingFallback.class.getName())
                .contains("deliveryDays(String)")
                .contains("fallbackMethod 'deliveryFallbak' does not exist");
        assertThat(analysis.getAction())
                .contains("int deliveryFallbak(String)")
                .contains("int deliveryFallbak(String, Throwable)");
    }

    @Test
    void fallbackWhoseParametersDoNotFit() {
        FailureAnalysis analysis = failureWith(WrongParameters.class);
        assertThat(analysis.getDescription())
                .contains(WrongParameters.class.getName())
                .contains("deliveryDays(String, int)")
                .contains("has fitting parameters")
                .contains("int deliveryFallback(String, long)");
        assertThat(analysis.getAction())
                .contains("int deliveryFallback(String, int)")
                .contains("int deliveryFallback(String, int, Throwable)");
    }

    @Test
    void fallbackWhoseLastParameterIsNotAThrowable() {
        FailureAnalysis analysis = failureWith(ExceptionParameterThatIsNotAThrowable.class);
        assertThat(analysis.getDescription())
                .contains("has fitting parameters")
                .contains("int deliveryFallback(String, String)");
        assertThat(analysis.getAction()).contains("int deliveryFallback(String, Throwable)");
    }

    @Test
    void fallbackWithAReturnTypeTheMethodCannotReturn() {
        FailureAnalysis analysis = failureWith(WrongReturnType.class);
        assertThat(analysis.getDescription())
                .contains(WrongReturnType.class.getName())
                .contains("deliveryDays(String)")
                .contains("returns String, which deliveryDays cannot return");
        assertThat(analysis.getAction()).contains("int deliveryFallback(String, Throwable)");
    }

    @Test
    void plainFallbackForAnAsynchronousMethod() {
        FailureAnalysis analysis = failureWith(PlainFallbackForAnAsyncMethod.class);
        assertThat(analysis.getDescription()).contains("quote(String)").contains("returns Integer");
        assertThat(analysis.getAction()).contains("CompletableFuture<Integer> quoteFallback(String)");
    }

    @Test
    void finalMethodThatAProxyCannotIntercept() {
        FailureAnalysis analysis = failureWith(FinalMethod.class);
        assertThat(analysis.getDescription())
                .contains(FinalMethod.class.getName())
                .contains("deliveryDays(String)")
                .contains("a final method cannot be intercepted");
    }

    private FailureAnalysis failureWith(Class<?> beanClass) {
        AtomicReference<FailureAnalysis> analysis = new AtomicReference<>();
        runner.withBean(beanClass).run(context -> {
            assertThat(context).hasFailed();
            analysis.set(new BreakerFailureAnalyzer().analyze(context.getStartupFailure()));
        });
        assertThat(analysis.get()).isNotNull();
        return analysis.get();
    }
}
