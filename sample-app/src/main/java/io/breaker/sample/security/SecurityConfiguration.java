package io.breaker.sample.security;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpMethod;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.crypto.factory.PasswordEncoderFactories;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;

/**
 * Who may do what. Reading is open: the bookshop, the wholesaler simulator's panel, and the
 * actuator's health, breakers, metrics and prometheus endpoints. Every other actuator request, and
 * in particular {@code POST /actuator/breakers/{name}}, needs an operator (role {@code OPERATOR},
 * HTTP basic). Stateless: no session and no cookie. A browser may still have cached the operator's
 * Basic credentials, so a write that a page of another site makes it send is refused
 * ({@link CrossSiteWrites}); the console, on this origin, and scripts, which are no browser, need no
 * CSRF token.
 */
@Configuration(proxyBeanMethods = false)
public class SecurityConfiguration {

    /** The role that may force breakers. */
    public static final String OPERATOR_ROLE = "OPERATOR";

    private static final Logger LOG = LoggerFactory.getLogger(SecurityConfiguration.class);

    @Bean
    SecurityFilterChain securityFilterChain(HttpSecurity http) throws Exception {
        http.authorizeHttpRequests(requests -> requests.requestMatchers(
                                HttpMethod.GET,
                                "/actuator/health/**",
                                "/actuator/breakers/**",
                                "/actuator/metrics/**",
                                "/actuator/prometheus")
                        .permitAll()
                        .requestMatchers("/actuator/**")
                        .hasRole(OPERATOR_ROLE)
                        // The bookshop, and the wholesaler simulator's panel: open to anyone, including
                        // PUT /wholesaler/mode/{mode}, which makes the simulated wholesaler fail. Fine for a
                        // demo; a real application has no simulator.
                        .anyRequest()
                        .permitAll())
                .httpBasic(basic -> basic.realmName("bookshop"))
                .sessionManagement(sessions -> sessions.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
                // The console runs in a browser that may have cached the operator's Basic credentials: a
                // write that a page of another site makes the browser send is refused (403).
                .csrf(csrf -> csrf.requireCsrfProtectionMatcher(new CrossSiteWrites()));
        return http.build();
    }

    @Bean
    UserDetailsService operators(OperatorProperties operator) {
        if (operator.usesDemoPassword()) {
            LOG.warn("bookshop.operator.password is the demo default: anyone who has read the README can force "
                    + "this app's breakers. Set BOOKSHOP_OPERATOR_PASSWORD before this app leaves your laptop.");
        }
        PasswordEncoder encoder = PasswordEncoderFactories.createDelegatingPasswordEncoder();
        return new InMemoryUserDetailsManager(User.withUsername(operator.username())
                .password(encoder.encode(operator.password()))
                .roles(OPERATOR_ROLE)
                .build());
    }
}
