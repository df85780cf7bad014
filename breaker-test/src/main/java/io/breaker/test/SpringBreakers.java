package io.breaker.test;

import io.breaker.BreakerRegistry;
import io.breaker.CircuitBreaker;
import io.breaker.internal.Integration;
import io.breaker.spring.actuate.BreakerActivity;
import io.breaker.spring.actuate.BreakerTransitionHistory;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.platform.commons.support.AnnotationSupport;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.ApplicationContext;
import org.springframework.test.context.event.ApplicationEvents;
import org.springframework.test.context.event.ApplicationEventsHolder;
import org.springframework.test.context.junit.jupiter.SpringExtension;

import java.util.Arrays;

/** The breakers of a Spring test's application context; loaded only when spring-test is on the class path. */
final class SpringBreakers {

    private SpringBreakers() {}

    /** Whether the test class, or one it is nested in, runs with Spring's extension. */
    static boolean runsWithSpring(ExtensionContext context) {
        for (Class<?> type = context.getRequiredTestClass(); type != null; type = type.getEnclosingClass()) {
            boolean spring = AnnotationSupport.findRepeatableAnnotations(type, ExtendWith.class).stream()
                    .anyMatch(extendWith -> Arrays.asList(extendWith.value()).contains(SpringExtension.class));
            if (spring) {
                return true;
            }
        }
        return false;
    }

    /**
     * Forgets the application events recorded so far for the test ({@code @RecordApplicationEvents}):
     * called right after the reset before each test, whose transitions to CLOSED are no part of it.
     */
    static void forgetEventsOfTheReset() {
        ApplicationEvents events = ApplicationEventsHolder.getApplicationEvents();
        if (events != null) {
            events.clear();
        }
    }

    static BreakerSession session(ExtensionContext context) {
        ApplicationContext application = SpringExtension.getApplicationContext(context);
        BreakerRegistry registry =
                application.getBeanProvider(BreakerRegistry.class).getIfUnique();
        if (registry == null) {
            throw new IllegalStateException("No BreakerRegistry bean in the test's application context: breakers"
                    + " are switched off (breakers.enabled=false), or the test is a slice without"
                    + " @AutoConfigureBreakers");
        }
        BreakerClock clock = application.getBeanProvider(BreakerClock.class).getIfUnique();
        if (clock == null) {
            throw new IllegalStateException("No BreakerClock bean in the test's application context: annotate the"
                    + " test class with @AutoConfigureBreakers, which puts the breakers on a virtual clock");
        }
        for (CircuitBreaker breaker : registry.all()) {
            if (Integration.clock(breaker) != clock) {
                throw new IllegalStateException("Breaker '" + breaker.getName() + "' does not run on the test's"
                        + " BreakerClock: the application defines a BreakerRegistry bean of its own; build it on"
                        + " the BreakerClock bean (BreakerRegistry.of(..., clock, clock.wallClock(), store))");
            }
        }
        ObjectProvider<BreakerTransitionHistory> history = application.getBeanProvider(BreakerTransitionHistory.class);
        ObjectProvider<BreakerActivity> activity = application.getBeanProvider(BreakerActivity.class);
        return new BreakerSession(registry, clock, () -> {
            history.ifAvailable(BreakerTransitionHistory::clear);
            activity.ifAvailable(BreakerActivity::clear);
        });
    }
}
