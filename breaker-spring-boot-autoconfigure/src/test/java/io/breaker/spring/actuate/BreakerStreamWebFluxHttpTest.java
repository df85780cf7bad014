package io.breaker.spring.actuate;

import io.breaker.spring.test.BootLine;
import io.breaker.spring.test.OnReactorNetty;
import org.junit.jupiter.api.Tag;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Import;

/** {@link BreakerStreamHttpTest} on WebFlux: the same stream, with no thread per subscriber. */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        classes = BreakerStreamHttpTest.App.class,
        properties = {
            "spring.main.web-application-type=reactive",
            "management.endpoints.web.exposure.include=breakers",
            "breakers.instances.wholesaler.failure-rate-threshold=50",
            "logging.level.io.breaker.transitions=off"
        })
@Import(OnReactorNetty.class)
@Tag(BootLine.TAG)
class BreakerStreamWebFluxHttpTest extends BreakerStreamHttpTest {}
