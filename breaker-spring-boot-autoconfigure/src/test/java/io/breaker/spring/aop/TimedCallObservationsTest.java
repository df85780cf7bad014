package io.breaker.spring.aop;

import io.breaker.BreakerConfig;
import io.breaker.BreakerRegistry;
import io.breaker.CallTimeoutException;
import io.breaker.spring.CircuitProtected;
import io.breaker.spring.call.CallContext;
import io.breaker.spring.call.CallTimeouts;
import io.breaker.spring.observation.BreakerObservations;
import io.breaker.spring.test.BootLine;
import io.micrometer.observation.Observation;
import io.micrometer.observation.tck.TestObservationRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.aop.framework.ProxyFactory;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static io.micrometer.observation.tck.TestObservationRegistryAssert.assertThat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Calls with a {@code call-timeout}, observed: the method runs on another thread with the call's
 * observation current there, and a call given up at its timeout is a failure, also when the timeout's
 * timer, not the caller, reports it. The methods that time out wait for a latch the test opens only
 * afterwards, so each of those calls times out whatever the machine's load; the one that looks at its
 * context has 30 s.
 */
@Tag(BootLine.TAG)
class TimedCallObservationsTest {

    private final ExecutorService executor = Executors.newCachedThreadPool();
    private final BreakerRegistry registry = BreakerRegistry.of(
            BreakerConfig.ofDefaults(),
            Map.of(
                    "slow",
                    BreakerConfig.builder().callTimeout(Duration.ofMillis(50)).build()));
    private final TestObservationRegistry observations = TestObservationRegistry.create();
    private final CountDownLatch answer = new CountDownLatch(1);
    private final Slow slow;

    TimedCallObservationsTest() {
        BreakerObservations breakerObservations = new BreakerObservations(observations, null);
        registry.onBreakerCreated(breaker -> breaker.addListener(breakerObservations));
        ProxyFactory factory = new ProxyFactory(new Slow());
        factory.setProxyTargetClass(true);
        factory.addAdvisor(new CircuitProtectedAdvisor(
                new ProtectedMethods(
                        () -> registry,
                        () -> RecordedResults.NONE,
                        () -> new CallTimeouts(breaker -> executor, CallContext.decorator(null)),
                        breakerObservations::ifRecording),
                0));
        slow = (Slow) factory.getProxy();
    }

    @AfterEach
    void release() {
        answer.countDown();
        executor.shutdownNow();
    }

    class Slow {

        final AtomicReference<Observation> seenByTheMethod = new AtomicReference<>();

        @CircuitProtected(name = "slow")
        public String price() throws InterruptedException {
            answer.await();
            return "12.50";
        }

        @CircuitProtected(name = "timed")
        public String quickPrice() {
            seenByTheMethod.set(observations.getCurrentObservation());
            return "12.50";
        }

        @CircuitProtected(name = "slow")
        public CompletableFuture<String> priceLater() {
            return new CompletableFuture<>();
        }
    }

    @Test
    void aTimedCallRunsOnItsThreadWithItsObservationCurrent() {
        assertThat(slow.quickPrice()).isEqualTo("12.50");

        assertThat(observations)
                .hasSingleObservationThat()
                .hasNameEqualTo("breaker.call")
                .hasLowCardinalityKeyValue("breaker.outcome", "success")
                .hasBeenStopped();
        // the proxy's target ran the method: read what it saw there
        Observation seen = targetOf(slow).seenByTheMethod.get();
        assertThat(seen).isNotNull();
        assertThat(seen.getContextView().getName()).isEqualTo("breaker.call");
    }

    @Test
    void aTimedCallGivenUpAtItsTimeoutIsAFailure() {
        assertThatThrownBy(slow::price).isInstanceOf(CallTimeoutException.class);

        assertThat(observations)
                .hasSingleObservationThat()
                .hasLowCardinalityKeyValue("breaker.outcome", "failure")
                .hasError()
                .hasBeenStopped();
    }

    @Test
    void aFutureGivenUpAtItsTimeoutIsAFailureThoughTheTimerReportedIt() throws Exception {
        CompletableFuture<String> price = slow.priceLater();

        assertThatThrownBy(() -> price.get(30, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(CallTimeoutException.class);
        // the timer's thread stops the observation right after it completed the caller's future
        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(() ->
                        assertThat(observations).hasSingleObservationThat().hasBeenStopped());
        assertThat(observations).hasSingleObservationThat().hasLowCardinalityKeyValue("breaker.outcome", "failure");
    }

    private static Slow targetOf(Slow proxy) {
        try {
            return (Slow) ((org.springframework.aop.framework.Advised) proxy)
                    .getTargetSource()
                    .getTarget();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
