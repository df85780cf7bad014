package io.breaker.test.app;

import io.breaker.test.AutoConfigureBreakers;
import org.springframework.boot.test.autoconfigure.web.reactive.WebFluxTest;

/** {@link WebFluxSliceBreakers} on Boot 3's {@code @WebFluxTest}. */
@WebFluxTest(Shop.StockController.class)
@AutoConfigureBreakers
class WebFluxSliceBreakersTest extends WebFluxSliceBreakers {}
