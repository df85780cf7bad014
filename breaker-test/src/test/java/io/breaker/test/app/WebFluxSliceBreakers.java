package io.breaker.test.app;

import io.breaker.test.AutoConfigureBreakers;
import io.breaker.test.Breakers;
import io.breaker.test.ForceBreaker;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.web.reactive.server.WebTestClient;

import java.time.Duration;

import static io.breaker.State.OPEN;
import static io.breaker.test.assertj.BreakerAssertions.assertThatBreaker;

/**
 * What a {@code @WebFluxTest} slice of {@link Shop.StockController} does with the kit, on any Boot line:
 * {@link AutoConfigureBreakers} brings the breakers there too. Each line's test extends this with its
 * own {@code @WebFluxTest} (the annotation moved package in Boot 4) and {@code @AutoConfigureBreakers}.
 */
public abstract class WebFluxSliceBreakers {

    @Autowired
    protected WebTestClient client;

    @Test
    protected void theControllerAnswersFromTheFallbackWhileTheBreakerIsOpenAndLiveAfterTheWait() {
        Breakers.trip("supplier");
        client.get().uri("/stock/pen").exchange().expectBody(String.class).isEqualTo("-1");
        assertThatBreaker("supplier").isOpen().rejected(1);

        Breakers.advance(Duration.ofSeconds(30));
        client.get().uri("/stock/pen").exchange().expectBody(String.class).isEqualTo("3");
        assertThatBreaker("supplier").isClosed();
    }

    @Test
    @ForceBreaker(name = "supplier", state = OPEN)
    protected void aForcedOpenBreakerRejectsEveryCall() {
        client.get().uri("/stock/pen").exchange().expectBody(String.class).isEqualTo("-1");
        assertThatBreaker("supplier").isForcedOpen().rejected(1);
    }
}
