package io.breaker.boot3;

import io.breaker.spring.actuate.ReactiveOperatorRoutesAccessRuleContract;
import org.springframework.boot.actuate.autoconfigure.security.reactive.EndpointRequest;

/** The documented access rule on WebFlux with Spring Boot 3's reactive {@code EndpointRequest}. */
class ReactiveOperatorRoutesAccessRuleOnBoot3Test extends ReactiveOperatorRoutesAccessRuleContract {

    ReactiveOperatorRoutesAccessRuleOnBoot3Test() {
        super(() -> EndpointRequest.to("breakers"));
    }
}
