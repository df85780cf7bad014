package io.breaker.test.app;

import io.breaker.test.AutoConfigureBreakers;
import org.springframework.boot.webflux.test.autoconfigure.WebFluxTest;

/** The test kit's {@link WebFluxSliceBreakers} on Boot 4's {@code @WebFluxTest}. */
@WebFluxTest(Shop.StockController.class)
@AutoConfigureBreakers
class Boot4WebFluxSliceBreakersTest extends WebFluxSliceBreakers {}
