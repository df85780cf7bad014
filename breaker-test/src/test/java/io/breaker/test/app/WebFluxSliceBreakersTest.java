package io.breaker.test.app;

import io.breaker.test.AutoConfigureBreakers;
import io.breaker.test.Breakers;
import io.breaker.test.ForceBreaker;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.autoconfigure.web.reactive.WebFluxTest;
import org.springframework.test.web.reactive.server.WebTestClient;

import java.time.Duration;

import static io.breaker.State.OPEN;
import static io.breaker.test.assertj.BreakerAssertions.assertThatBreaker;

/** A {@code @WebFluxTest} slice: {@link AutoConfigureBreakers} brings the breakers there too. */
@WebFluxTest(Shop.StockController.class)
@AutoConfigureBreakers
class WebFluxSliceBreakersTest {

    @Autowired
    WebTestClient client;

    @Test
    void theControllerAnswersFromTheFallbackWhileTheBreakerIsOpenAndLiveAfterTheWait() {
        Breakers.trip("supplier");
        client.get().uri("/stock/pen").exchange().expectBody(String.class).isEqualTo("-1");
        assertThatBreaker("supplier").isOpen().rejected(1);

        Breakers.advance(Duration.ofSeconds(30));
        client.get().uri("/stock/pen").exchange().expectBody(String.class).isEqualTo("3");
        assertThatBreaker("supplier").isClosed();
    }

    @Test
    @ForceBreaker(name = "supplier", state = OPEN)
    void aForcedOpenBreakerRejectsEveryCall() {
        client.get().uri("/stock/pen").exchange().expectBody(String.class).isEqualTo("-1");
        assertThatBreaker("supplier").isForcedOpen().rejected(1);
    }
}
