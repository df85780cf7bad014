package io.breaker.spring.actuate;

import io.breaker.spring.test.BootLine;
import io.breaker.spring.test.OnReactorNetty;
import org.junit.jupiter.api.Tag;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Import;
import org.springframework.test.annotation.DirtiesContext;

/** {@link BreakerStreamLimitsHttpTest} on WebFlux. */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        classes = BreakerStreamLimitsHttpTest.App.class,
        properties = {"spring.main.web-application-type=reactive", "management.endpoints.web.exposure.include=breakers"
        })
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_EACH_TEST_METHOD)
@Import(OnReactorNetty.class)
@Tag(BootLine.TAG)
class BreakerStreamLimitsWebFluxHttpTest extends BreakerStreamLimitsHttpTest {}
