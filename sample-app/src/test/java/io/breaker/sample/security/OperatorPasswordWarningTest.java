package io.breaker.sample.security;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.security.core.userdetails.UserDetails;

import static org.assertj.core.api.Assertions.assertThat;

@ExtendWith(OutputCaptureExtension.class)
class OperatorPasswordWarningTest {

    @Test
    void warnsAtStartUpWhenTheDemoPasswordIsUsed(CapturedOutput output) {
        UserDetails operator = new SecurityConfiguration()
                .operators(new OperatorProperties(null, null))
                .loadUserByUsername("operator");

        assertThat(output).contains("WARN").contains("bookshop.operator.password is the demo default");
        assertThat(operator.getAuthorities()).extracting(Object::toString).containsExactly("ROLE_OPERATOR");
    }

    @Test
    void staysQuietWithAPasswordOfItsOwn(CapturedOutput output) {
        new SecurityConfiguration().operators(new OperatorProperties("ops", "a-real-secret"));

        assertThat(output).doesNotContain("demo default");
    }
}
