package io.breaker.test.app;

import io.breaker.test.AutoConfigureBreakers;
import io.breaker.test.ForceBreaker;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;

import static io.breaker.State.CLOSED;

/** The test kit's {@link WebMvcSliceBreakers} on Boot 4's {@code @WebMvcTest}. */
@WebMvcTest(Shop.StockController.class)
@AutoConfigureBreakers
@ForceBreaker(name = "catalogue", state = CLOSED)
class Boot4WebMvcSliceBreakersTest extends WebMvcSliceBreakers {}
