package io.breaker.boot3;

import io.breaker.spring.autoconfigure.BootLineCheck;

/** Registered by the Boot 3 starter: stops start-up on Spring Boot 4 and names the Boot 4 starter. */
public class Boot3LineCheck extends BootLineCheck {

    public Boot3LineCheck() {
        super(3);
    }
}
