package consumer;

import io.breaker.test.AutoConfigureBreakers;
import io.breaker.test.BreakerClock;
import io.breaker.test.Breakers;
import io.breaker.test.ForceBreaker;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

import java.time.Duration;

import static io.breaker.State.CLOSED;
import static io.breaker.State.HALF_OPEN;
import static io.breaker.State.OPEN;
import static io.breaker.TransitionCause.FAILURE_RATE;
import static io.breaker.TransitionCause.PROBE_FAILED;
import static io.breaker.TransitionCause.WAIT_ELAPSED;
import static io.breaker.test.assertj.BreakerAssertions.assertThatBreaker;
import static io.breaker.test.assertj.BreakerAssertions.assertThatTransitions;
import static io.breaker.test.assertj.BreakerAssertions.transition;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The test kit as a user of this line writes it: a {@code @SpringBootTest} on the application's own
 * configuration, breakers on the kit's clock, reset before each test (the tests run in an order that
 * would leak an OPEN breaker into the next one without the reset).
 */
@SpringBootTest
@AutoConfigureBreakers
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ConsumerKitTest {

    @Autowired
    private ConsumerApplication.Supplier supplier;

    @Autowired
    private BreakerClock clock;

    @Test
    @Order(1)
    void theSupplierIsCutOffAfterItsFailuresAndProbedAfterTheWaitWithoutRealTimePassing() {
        for (int i = 0; i < 4; i++) {
            assertThat(supplier.price("book")).isEqualTo("unknown");
        }
        assertThatBreaker("supplier").isOpen().hasFailureRate(100.0);
        assertThat(supplier.price("book")).isEqualTo("unknown");
        assertThatBreaker("supplier").rejected(1);

        clock.advance(Duration.ofMinutes(1)); // the configured wait, on the kit's clock
        assertThat(supplier.price("book")).isEqualTo("unknown"); // the probe reaches the supplier, which fails

        assertThatTransitions()
                .containsExactly(
                        transition("supplier", CLOSED, OPEN, FAILURE_RATE),
                        transition("supplier", OPEN, HALF_OPEN, WAIT_ELAPSED),
                        transition("supplier", HALF_OPEN, OPEN, PROBE_FAILED));
    }

    @Test
    @Order(2)
    void startsClosedAndFreshAfterATestThatLeftItOpen() {
        assertThatBreaker("supplier").isClosed().hasNotTransitioned();
        assertThatTransitions().isEmpty();
    }

    @Test
    @Order(3)
    @ForceBreaker(name = "supplier", state = OPEN)
    void aForcedOpenBreakerRejectsEveryCall() {
        assertThat(supplier.price("book")).isEqualTo("unknown");
        assertThatBreaker("supplier").isForcedOpen().rejected(1);
    }

    @Test
    @Order(4)
    void aTripIsARealOne() {
        Breakers.trip("supplier");
        assertThatBreaker("supplier").isOpen().hasTransitioned(CLOSED, OPEN);
    }
}
