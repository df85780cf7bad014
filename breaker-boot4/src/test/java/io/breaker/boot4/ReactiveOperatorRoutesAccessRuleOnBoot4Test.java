package io.breaker.boot4;

import io.breaker.spring.actuate.ReactiveOperatorRoutesAccessRuleContract;
import org.springframework.boot.security.autoconfigure.actuate.web.reactive.EndpointRequest;

/** The documented access rule on WebFlux with Spring Boot 4's reactive {@code EndpointRequest}, which moved packages. */
class ReactiveOperatorRoutesAccessRuleOnBoot4Test extends ReactiveOperatorRoutesAccessRuleContract {

    ReactiveOperatorRoutesAccessRuleOnBoot4Test() {
        super(() -> EndpointRequest.to("breakers"));
    }
}
