package io.breaker.test.app;

import io.breaker.test.AutoConfigureBreakers;
import io.breaker.test.ForceBreaker;
import org.springframework.boot.test.autoconfigure.web.servlet.WebMvcTest;

import static io.breaker.State.CLOSED;

/** {@link WebMvcSliceBreakers} on Boot 3's {@code @WebMvcTest}. */
@WebMvcTest(Shop.StockController.class)
@AutoConfigureBreakers
@ForceBreaker(name = "catalogue", state = CLOSED)
class WebMvcSliceBreakersTest extends WebMvcSliceBreakers {}
