package io.breaker.boot4;

import io.breaker.spring.actuate.OperatorRoutesAccessRuleContract;
import org.springframework.boot.security.autoconfigure.actuate.web.servlet.EndpointRequest;

/** The documented access rule with Spring Boot 4's {@code EndpointRequest}, which moved packages. */
class OperatorRoutesAccessRuleOnBoot4Test extends OperatorRoutesAccessRuleContract {

    OperatorRoutesAccessRuleOnBoot4Test() {
        super(() -> EndpointRequest.to("breakers"));
    }
}
