package io.breaker.test.app;

import io.breaker.test.AutoConfigureBreakers;
import io.breaker.test.BreakerClock;
import io.breaker.test.Breakers;
import io.breaker.test.ForceBreaker;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

import java.time.Duration;

import static io.breaker.State.CLOSED;
import static io.breaker.State.HALF_OPEN;
import static io.breaker.State.OPEN;
import static io.breaker.TransitionCause.FAILURE_RATE;
import static io.breaker.TransitionCause.PROBES_SUCCEEDED;
import static io.breaker.TransitionCause.WAIT_ELAPSED;
import static io.breaker.test.assertj.BreakerAssertions.assertThatBreaker;
import static io.breaker.test.assertj.BreakerAssertions.assertThatTransitions;
import static io.breaker.test.assertj.BreakerAssertions.transition;
import static org.assertj.core.api.Assertions.assertThat;

/** The README's example of a Spring test (it shares its context with SpringBootBreakersTest). */
@SpringBootTest(classes = Shop.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@AutoConfigureBreakers
class StockBreakerTest {

    @Autowired
    Shop.Stock stock;

    @Autowired
    Shop.Supplier supplier;

    @Autowired
    BreakerClock clock;

    @Test
    void answersUnknownWhileTheSupplierIsCutOffAndAsksAgainAfterTheWait() {
        Breakers.trip("supplier");
        assertThat(stock.quantity("book")).isEqualTo(-1); // rejected: the fallback answers
        assertThatBreaker("supplier").isOpen().rejected(1);

        clock.advance(Duration.ofSeconds(30)); // the configured wait; no real time passes
        assertThat(stock.quantity("book")).isEqualTo(4); // the probe reaches the supplier
        assertThatBreaker("supplier").isClosed();
        assertThatTransitions()
                .containsExactly(
                        transition("supplier", CLOSED, OPEN, FAILURE_RATE),
                        transition("supplier", OPEN, HALF_OPEN, WAIT_ELAPSED),
                        transition("supplier", HALF_OPEN, CLOSED, PROBES_SUCCEEDED));
    }

    @Test
    @ForceBreaker(name = "supplier", state = OPEN)
    void neverAsksTheSupplierWhileTheBreakerIsForcedOpen() {
        int calls = supplier.calls.get();
        assertThat(stock.quantity("book")).isEqualTo(-1);
        assertThat(supplier.calls).hasValue(calls);
        assertThatBreaker("supplier").isForcedOpen();
    }
}
