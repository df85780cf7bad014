package io.breaker.spring.cloud.gateway;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class StatusCodesTest {

    @Test
    void takesCodesAndNamesOfStatuses() {
        assertThat(StatusCodes.parse(List.of("500", " 503 ", "bad_gateway", "GATEWAY_TIMEOUT", 429), "route 'r'"))
                .containsExactlyInAnyOrder(500, 503, 502, 504, 429);
    }

    @Test
    void refusesWhatNamesNoStatusAndSaysWhere() {
        for (String value : List.of("5xx", "SERVER_ERROR", "599", "0500", "", "-1", "1000000")) {
            assertThatIllegalArgumentException()
                    .as(value)
                    .isThrownBy(
                            () -> StatusCodes.parse(List.of("500", value), "CircuitBreaker filter of route 'books'"))
                    .withMessageStartingWith(
                            "CircuitBreaker filter of route 'books': statusCodes entry '" + value + "'")
                    .withMessageContaining("500")
                    .withMessageContaining("INTERNAL_SERVER_ERROR");
        }
    }
}
