package io.breaker.test.app;

import io.breaker.test.AutoConfigureBreakers;
import io.breaker.test.BreakerClock;
import io.breaker.test.Breakers;
import io.breaker.test.ForceBreaker;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.web.servlet.MockMvc;

import java.time.Duration;

import static io.breaker.State.OPEN;
import static io.breaker.test.assertj.BreakerAssertions.assertThatBreaker;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;

/**
 * What a {@code @WebMvcTest} slice of {@link Shop.StockController} does with the kit, on any Boot line:
 * the slice itself configures no breaker; {@link AutoConfigureBreakers} brings the registry,
 * {@code @CircuitProtected} and the virtual clock. Each line's test extends this with its own
 * {@code @WebMvcTest} (the annotation moved package in Boot 4), {@code @AutoConfigureBreakers} and
 * {@code @ForceBreaker(name = "catalogue", state = CLOSED)}.
 */
public abstract class WebMvcSliceBreakers {

    @Autowired
    protected MockMvc mvc;

    @Autowired
    protected BreakerClock clock;

    @Test
    protected void theControllerAnswersFromTheFallbackWhileTheBreakerIsOpenAndLiveAfterTheWait() throws Exception {
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
    protected void aForcedBreakerOnTheMethodAddsToTheClasses() throws Exception {
        mvc.perform(get("/stock/pen")).andExpect(content().string("-1"));
        assertThatBreaker("supplier").isForcedOpen();
        assertThatBreaker("catalogue").isForcedClosed();
    }
}
