package io.breaker;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;

/** A transitions-only listener added to a registry hears every breaker's transitions, with the breaker. */
class TransitionListenerTest {

    private final FakeClock clock = new FakeClock();
    private final BreakerRegistry registry =
            BreakerRegistry.of(Breakers.smallWindow().build(), Map.of(), clock);

    @Test
    void hearsTheTransitionsOfBreakersPresentAndFutureWithTheBreaker() {
        CircuitBreaker before = registry.breaker("before");
        List<String> heard = new CopyOnWriteArrayList<>();
        registry.addTransitionListener((breaker, transition) ->
                heard.add(breaker.getName() + ":" + transition.to() + ":" + (breaker.getState() == transition.to())));
        CircuitBreaker after = registry.breaker("after");

        before.forceOpen();
        Breakers.trip(after);

        assertThat(heard).containsExactly("before:FORCED_OPEN:true", "after:OPEN:true");
    }

    @Test
    void leavesCallsUntimedAndHearsNoCall() {
        List<Transition> heard = new CopyOnWriteArrayList<>();
        registry.addTransitionListener((breaker, transition) -> heard.add(transition));
        CircuitBreaker breaker = registry.breaker("wholesaler");
        long readsBefore = clock.reads();

        breaker.execute(() -> "ok");
        Breakers.fail(breaker, 1);

        assertThat(clock.reads()).isEqualTo(readsBefore);
        assertThat(heard).isEmpty();
    }

    @Test
    void aWarningAboutAFailingListenerNamesIt() {
        TransitionListener failing = new TransitionListener() {
            @Override
            public void onTransition(CircuitBreaker breaker, Transition transition) {
                throw new IllegalStateException("boom");
            }

            @Override
            public String toString() {
                return "AuditTrail";
            }
        };
        registry.addTransitionListener(failing);
        CircuitBreaker breaker = registry.breaker("wholesaler");

        breaker.forceOpen();

        assertThat(breaker.getState()).isEqualTo(State.FORCED_OPEN);
        assertThat(new TransitionsOnly(breaker, failing)).hasToString("AuditTrail");
    }
}
