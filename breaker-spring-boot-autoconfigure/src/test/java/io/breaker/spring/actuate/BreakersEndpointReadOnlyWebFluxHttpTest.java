package io.breaker.spring.actuate;

import io.breaker.spring.test.BootLine;
import io.breaker.spring.test.OnReactorNetty;
import org.junit.jupiter.api.Tag;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Import;

/** {@link BreakersEndpointReadOnlyHttpTest} on WebFlux. */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        classes = BreakersEndpointHttpTest.App.class,
        properties = {
            "spring.main.web-application-type=reactive",
            "management.endpoints.web.exposure.include=breakers",
            "management.endpoint.breakers.access=read-only"
        })
@Import(OnReactorNetty.class)
@Tag(BootLine.TAG)
class BreakersEndpointReadOnlyWebFluxHttpTest extends BreakersEndpointReadOnlyHttpTest {}
