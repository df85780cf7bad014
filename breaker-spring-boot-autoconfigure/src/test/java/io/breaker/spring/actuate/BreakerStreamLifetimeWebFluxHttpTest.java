package io.breaker.spring.actuate;

import io.breaker.spring.test.BootLine;
import io.breaker.spring.test.OnReactorNetty;
import org.junit.jupiter.api.Tag;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Import;

/** {@link BreakerStreamLifetimeHttpTest} on WebFlux, where Reactor's timer ends the quiet stream. */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        classes = BreakerStreamLifetimeHttpTest.App.class,
        properties = {"spring.main.web-application-type=reactive", "management.endpoints.web.exposure.include=breakers"
        })
@Import(OnReactorNetty.class)
@Tag(BootLine.TAG)
class BreakerStreamLifetimeWebFluxHttpTest extends BreakerStreamLifetimeHttpTest {}
