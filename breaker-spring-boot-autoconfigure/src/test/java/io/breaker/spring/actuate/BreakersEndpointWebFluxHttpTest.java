package io.breaker.spring.actuate;

import io.breaker.spring.test.BootLine;
import io.breaker.spring.test.OnReactorNetty;
import io.breaker.spring.test.WithMetricsExport;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Import;

/**
 * {@link BreakersEndpointHttpTest} on WebFlux: the same endpoint, and the same refusal of a write whose
 * body or query names another breaker than its URL.
 */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        classes = BreakersEndpointHttpTest.App.class,
        properties = {
            "spring.main.web-application-type=reactive",
            "management.endpoints.web.exposure.include=breakers,health,prometheus"
        })
@WithMetricsExport
@ExtendWith(OutputCaptureExtension.class)
@Import(OnReactorNetty.class)
@Tag(BootLine.TAG)
class BreakersEndpointWebFluxHttpTest extends BreakersEndpointHttpTest {

    /**
     * Not run here: on WebFlux the actuator gives an operation the principal of Spring Security's reactive
     * context only, and these tests stand in for Spring Security with a plain filter ({@code TestUsers}).
     * The operators' routes take the exchange's principal ({@link RuntimeSettingsWebFluxHttpTest}).
     */
    @Override
    void logsEachChangeAtWarnWithTheAuthenticatedPrincipal(CapturedOutput output) {}
}
