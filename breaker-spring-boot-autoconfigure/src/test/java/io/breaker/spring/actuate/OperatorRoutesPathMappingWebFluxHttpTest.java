package io.breaker.spring.actuate;

import io.breaker.spring.test.BootLine;
import io.breaker.spring.test.OnReactorNetty;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Tag;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** {@link OperatorRoutesPathMappingHttpTest} on WebFlux: the routes move with the endpoint there too. */
@Tag(BootLine.TAG)
class OperatorRoutesPathMappingWebFluxHttpTest {

    @Nested
    @SpringBootTest(
            webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
            classes = OperatorRoutesPathMappingHttpTest.App.class,
            properties = {
                "spring.main.web-application-type=reactive",
                "management.endpoints.web.exposure.include=breakers",
                "management.endpoints.web.base-path=/manage",
                "management.endpoints.web.path-mapping.breakers=circuit-breakers",
                "breakers.console.enabled=true",
                "breakers.instances.wholesaler.failure-rate-threshold=50"
            })
    @Import(OnReactorNetty.class)
    class UnderAPathMapping extends OperatorRoutesPathMappingHttpTest.UnderAPathMappingTests {}

    @Nested
    @SpringBootTest(
            webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
            classes = OperatorRoutesPathMappingHttpTest.App.class,
            properties = {
                "spring.main.web-application-type=reactive",
                "management.server.port=0",
                "management.endpoints.web.exposure.include=breakers",
                "management.endpoints.web.path-mapping.breakers=circuit-breakers",
                "breakers.console.enabled=true",
                "breakers.instances.wholesaler.failure-rate-threshold=50"
            })
    @Import(OnReactorNetty.class)
    class OnAManagementPortOfItsOwn extends OperatorRoutesPathMappingHttpTest.OnAManagementPortOfItsOwnTests {

        @DynamicPropertySource
        static void onReactorNettyOnly(DynamicPropertyRegistry registry) {
            registry.add("spring.autoconfigure.exclude", BootLine::tomcatReactiveManagementAutoConfiguration);
        }
    }
}
