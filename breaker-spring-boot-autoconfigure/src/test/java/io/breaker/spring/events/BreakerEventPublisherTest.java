package io.breaker.spring.events;

import io.breaker.BreakerConfig;
import io.breaker.BreakerRegistry;
import io.breaker.State;
import io.breaker.TransitionCause;
import io.breaker.internal.Integration;
import io.breaker.spring.actuate.BreakerTransitionHistory;
import io.breaker.spring.autoconfigure.BreakerEventsAutoConfiguration;
import io.breaker.spring.logging.BreakerTransitionLogger;
import io.breaker.spring.test.BootLine;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationListener;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;

/** Every transition becomes a Spring event that applications can listen to. */
@Tag(BootLine.TAG)
class BreakerEventPublisherTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(BreakerEventsAutoConfiguration.class));

    @Test
    void eachTransitionOfEachBreakerIsPublishedOnce() {
        List<BreakerTransitionEvent> events = new CopyOnWriteArrayList<>();
        runner.withBean(BreakerRegistry.class, () -> BreakerRegistry.of(BreakerConfig.ofDefaults(), Map.of()))
                .withBean("collector", ApplicationListener.class, () ->
                        (ApplicationListener<BreakerTransitionEvent>) events::add)
                .run(context -> {
                    BreakerRegistry registry = context.getBean(BreakerRegistry.class);
                    registry.breaker("wholesaler").forceOpen();
                    registry.breaker("created-later").forceClosed();

                    assertThat(events).hasSize(2);
                    assertThat(events.get(0).getBreakerName()).isEqualTo("wholesaler");
                    assertThat(events.get(0).getFrom()).isEqualTo(State.CLOSED);
                    assertThat(events.get(0).getTo()).isEqualTo(State.FORCED_OPEN);
                    assertThat(events.get(0).getCause()).isEqualTo(TransitionCause.OPERATOR);
                    assertThat(events.get(0).getSource()).isSameAs(registry);
                    assertThat(events.get(1).getBreakerName()).isEqualTo("created-later");
                });
    }

    @Test
    void logsAndEventsDoNotMakeTheBreakerTimeItsCalls() {
        runner.withBean(BreakerRegistry.class, BreakerRegistry::ofDefaults).run(context -> {
            BreakerRegistry registry = context.getBean(BreakerRegistry.class);
            BreakerTransitionHistory.bind(registry, 10);
            assertThat(Integration.isTimingCalls(registry.breaker("wholesaler")))
                    .isFalse();
        });
    }

    @Test
    void loggerAndPublisherNeedARegistry() {
        runner.run(context -> {
            assertThat(context).doesNotHaveBean(BreakerEventPublisher.class);
            assertThat(context).doesNotHaveBean(BreakerTransitionLogger.class);
        });
    }

    @Test
    void loggerAndPublisherAppearWithARegistry() {
        runner.withBean(BreakerRegistry.class, BreakerRegistry::ofDefaults).run(context -> {
            assertThat(context).hasSingleBean(BreakerEventPublisher.class);
            assertThat(context).hasSingleBean(BreakerTransitionLogger.class);
        });
    }
}
