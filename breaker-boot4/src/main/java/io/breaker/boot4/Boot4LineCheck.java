package io.breaker.boot4;

import io.breaker.spring.autoconfigure.BootLineCheck;

/** Registered by the Boot 4 starter: stops start-up on Spring Boot 3 and names the Boot 3 starter. */
public class Boot4LineCheck extends BootLineCheck {

    public Boot4LineCheck() {
        super(4);
    }
}
