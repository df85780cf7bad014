package io.breaker.sample.security;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The operator who may force breakers through {@code POST /actuator/breakers/{name}} (HTTP basic).
 *
 * @param username the operator's user name
 * @param password the operator's password; set it from the environment ({@code BOOKSHOP_OPERATOR_PASSWORD})
 */
@ConfigurationProperties("bookshop.operator")
public record OperatorProperties(String username, String password) {

    /** The password the demo ships with: fine on a laptop, a warning at start-up anywhere. */
    public static final String DEMO_PASSWORD = "demo-operator";

    public OperatorProperties {
        username = username == null || username.isBlank() ? "operator" : username;
        password = password == null || password.isEmpty() ? DEMO_PASSWORD : password;
    }

    public boolean usesDemoPassword() {
        return DEMO_PASSWORD.equals(password);
    }
}
