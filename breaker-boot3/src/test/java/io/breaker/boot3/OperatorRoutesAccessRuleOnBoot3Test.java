package io.breaker.boot3;

import io.breaker.spring.actuate.OperatorRoutesAccessRuleContract;
import org.springframework.boot.actuate.autoconfigure.security.servlet.EndpointRequest;

/** The documented access rule with Spring Boot 3's {@code EndpointRequest}. */
class OperatorRoutesAccessRuleOnBoot3Test extends OperatorRoutesAccessRuleContract {

    OperatorRoutesAccessRuleOnBoot3Test() {
        super(() -> EndpointRequest.to("breakers"));
    }
}
