package io.breaker.spring.actuate;

import io.breaker.spring.test.BootLine;
import io.breaker.spring.test.OnReactorNetty;
import org.junit.jupiter.api.Tag;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Import;

/** {@link RuntimeSettingsHttpTest} on WebFlux: the same answers, and the exchange's principal in the audit. */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        classes = RuntimeSettingsHttpTest.App.class,
        properties = {
            "spring.main.web-application-type=reactive",
            "management.endpoints.web.exposure.include=breakers",
            "breakers.instances.wholesaler.sliding-window-size=4",
            "breakers.instances.wholesaler.minimum-number-of-calls=4",
            "breakers.instances.wholesaler.failure-rate-threshold=50",
            "breakers.instances.catalogue.call-timeout=2s",
            "breakers.instances.catalogue.call-timeout-executor=applicationTaskExecutor",
            "spring.jackson.property-naming-strategy=SNAKE_CASE"
        })
@Import(OnReactorNetty.class)
@Tag(BootLine.TAG)
class RuntimeSettingsWebFluxHttpTest extends RuntimeSettingsHttpTest {

    @Override
    boolean actuatorSeesTheTestUser() {
        return false;
    }
}
