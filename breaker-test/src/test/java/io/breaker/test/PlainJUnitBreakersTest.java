package io.breaker.test;

import io.breaker.BreakerRegistry;
import io.breaker.CircuitBreaker;
import io.breaker.CircuitOpenException;
import io.breaker.State;
import io.breaker.Transition;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;

import static io.breaker.State.CLOSED;
import static io.breaker.State.HALF_OPEN;
import static io.breaker.State.OPEN;
import static io.breaker.TransitionCause.FAILURE_RATE;
import static io.breaker.TransitionCause.PROBES_SUCCEEDED;
import static io.breaker.TransitionCause.WAIT_ELAPSED;
import static io.breaker.test.assertj.BreakerAssertions.assertThat;
import static io.breaker.test.assertj.BreakerAssertions.assertThatTransitions;
import static io.breaker.test.assertj.BreakerAssertions.transition;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The extension without Spring: a new clock and registry per test, as parameters. */
@ExtendWith(BreakerExtension.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class PlainJUnitBreakersTest {

    private static BreakerRegistry firstTestsRegistry;

    @Test
    @Order(1)
    void aTrippedBreakerWaitsExactlyAsLongAsTheClockIsAdvanced(BreakerRegistry registry, BreakerClock clock) {
        firstTestsRegistry = registry;
        CircuitBreaker inventory = registry.breaker("inventory");
        Duration wait = inventory.getConfig().getWaitDurationInOpenState();

        Breakers.trip("inventory");
        assertThat(inventory).isOpen().hasFailureRate(100.0).hasTransitioned(CLOSED, OPEN);
        assertThat(inventory.getLastFailureType()).isEqualTo("io.breaker.test.Breakers.trip");
        assertThat(inventory.getOpenedAt()).isEqualTo(clock.instant());

        clock.advance(wait.minusNanos(1));
        assertThatThrownBy(() -> inventory.execute(() -> 1)).isInstanceOf(CircuitOpenException.class);
        assertThat(inventory).rejected(1);

        clock.advance(Duration.ofNanos(1));
        assertThat(inventory.execute(() -> 1)).isEqualTo(1);
        assertThat(inventory).isClosed().rejected(1);
        assertThatTransitions()
                .containsExactly(
                        transition("inventory", CLOSED, OPEN, FAILURE_RATE),
                        transition("inventory", OPEN, HALF_OPEN, WAIT_ELAPSED),
                        transition("inventory", HALF_OPEN, CLOSED, PROBES_SUCCEEDED));
        Transition closing = Breakers.transitions().get(2);
        assertThat(closing.at()).isEqualTo(clock.instant());
        assertThat(inventory.getStateSince()).isEqualTo(clock.instant());
    }

    @Test
    @Order(2)
    void eachTestHasItsOwnRegistryAndClock(BreakerRegistry registry, BreakerClock clock) {
        assertThat(registry).isNotSameAs(firstTestsRegistry);
        assertThat(registry.all()).isEmpty();
        assertThat(clock.elapsed()).isZero();
        assertThatTransitions().isEmpty();
    }

    @Test
    void forcingAndResetting(BreakerRegistry registry) {
        CircuitBreaker inventory = registry.breaker("inventory");
        Breakers.force("inventory", OPEN);
        assertThat(inventory).isForcedOpen();
        Breakers.force("inventory", State.FORCED_CLOSED);
        assertThat(inventory).isForcedClosed();
        assertThatThrownBy(() -> Breakers.trip("inventory"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("is FORCED_CLOSED by an operator");

        Breakers.reset();
        assertThat(inventory).isClosed().hasNotTransitioned();
        Breakers.trip("inventory");
        assertThat(inventory).isOpen();
    }

    @Test
    void aNameThatDoesNotExistFailsWithTheNamesThatDo(BreakerRegistry registry) {
        registry.breaker("inventory");
        registry.breaker("catalogue");
        assertThatThrownBy(() -> Breakers.force("inventroy", OPEN))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("No breaker named 'inventroy'; the breakers are [catalogue, inventory]");
        assertThatThrownBy(() -> Breakers.force("inventory", HALF_OPEN))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("OPEN (FORCED_OPEN) and CLOSED (FORCED_CLOSED)");
    }

    @Test
    void assertionsSayWhatTheyFound(BreakerRegistry registry) {
        CircuitBreaker inventory = registry.breaker("inventory");
        assertThatThrownBy(() -> assertThat(inventory).isOpen())
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("Expected breaker 'inventory' to be OPEN but it was CLOSED");
        assertThatThrownBy(() -> assertThat(inventory).hasTransitioned(CLOSED, OPEN))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("its transitions were none");
        Breakers.trip("inventory");
        assertThatThrownBy(() -> assertThatTransitions().isEmpty())
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("inventory CLOSED->OPEN (FAILURE_RATE)");
        assertThatThrownBy(() -> assertThat(inventory).rejected(2))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("to have rejected 2 calls but it rejected 0");
    }
}
