package io.breaker.test.app;

import io.breaker.test.AutoConfigureBreakers;
import io.breaker.test.BreakerClock;
import io.breaker.test.Breakers;
import io.breaker.test.ForceBreaker;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.autoconfigure.web.servlet.WebMvcTest;
import org.springframework.test.web.servlet.MockMvc;

import java.time.Duration;

import static io.breaker.State.CLOSED;
import static io.breaker.State.OPEN;
import static io.breaker.test.assertj.BreakerAssertions.assertThatBreaker;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;

/**
 * A {@code @WebMvcTest} slice: the slice itself configures no breaker; {@link AutoConfigureBreakers}
 * brings the registry, {@code @CircuitProtected} and the virtual clock.
 */
@WebMvcTest(Shop.StockController.class)
@AutoConfigureBreakers
@ForceBreaker(name = "catalogue", state = CLOSED)
class WebMvcSliceBreakersTest {

    @Autowired
    MockMvc mvc;

    @Autowired
    BreakerClock clock;

    @Test
    void theControllerAnswersFromTheFallbackWhileTheBreakerIsOpenAndLiveAfterTheWait() throws Exception {
        mvc.perform(get("/stock/pen")).andExpect(content().string("3"));

        Breakers.trip("supplier");
        mvc.perform(get("/stock/pen")).andExpect(content().string("-1"));
        assertThatBreaker("supplier").isOpen().rejected(1);

        clock.advance(Duration.ofSeconds(30));
        mvc.perform(get("/stock/pen")).andExpect(content().string("3"));
        assertThatBreaker("supplier").isClosed().hasTransitioned(OPEN, io.breaker.State.HALF_OPEN);
        assertThatBreaker("catalogue").isForcedClosed();
    }

    @Test
    @ForceBreaker(name = "supplier", state = OPEN)
    void aForcedBreakerOnTheMethodAddsToTheClasses() throws Exception {
        mvc.perform(get("/stock/pen")).andExpect(content().string("-1"));
        assertThatBreaker("supplier").isForcedOpen();
        assertThatBreaker("catalogue").isForcedClosed();
    }
}
