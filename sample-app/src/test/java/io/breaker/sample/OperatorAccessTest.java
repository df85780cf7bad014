package io.breaker.sample;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;

import static org.assertj.core.api.Assertions.assertThat;

/** Reading the breakers is open; forcing one takes an authenticated operator. */
class OperatorAccessTest extends BookshopHttpTest {

    private static final String OPEN = "{\"state\":\"OPEN\"}";

    @BeforeEach
    void freshBreakerAndHealthyWholesaler() {
        resetBreakerAndWholesaler();
    }

    @Test
    void unauthenticatedPostIsRejectedWith401AndChangesNothing() {
        JsonNode before = breaker("wholesaler");

        HttpResponse<String> anonymous = postState("wholesaler", OPEN, null, null);

        assertThat(anonymous.statusCode()).isEqualTo(401);
        assertThat(anonymous.headers().firstValue("WWW-Authenticate"))
                .hasValueSatisfying(challenge -> assertThat(challenge).startsWith("Basic"));
        JsonNode after = breaker("wholesaler");
        assertThat(after.get("state").asText()).isEqualTo("CLOSED");
        assertThat(after.get("transitions")).isEqualTo(before.get("transitions"));
        assertThat(servedBy(deliveryTime("9780134685991"))).isEqualTo("live");
    }

    @Test
    void aWriteFromAnotherSiteIsRefusedEvenWithTheOperatorsCredentials() {
        // A page on another site posting with the operator's cached Basic credentials: a browser names
        // that site in Origin (and says cross-site in Sec-Fetch-Site), which no same-origin console does.
        HttpResponse<String> fromOtherOrigin =
                postState("wholesaler", OPEN, OPERATOR, OPERATOR_PASSWORD, "Origin", "http://attacker.example");
        assertThat(fromOtherOrigin.statusCode()).isEqualTo(403);
        HttpResponse<String> crossSite =
                postState("wholesaler", OPEN, OPERATOR, OPERATOR_PASSWORD, "Sec-Fetch-Site", "cross-site");
        assertThat(crossSite.statusCode()).isEqualTo(403);
        HttpResponse<String> settings = post(
                "/actuator/breakers/wholesaler/config",
                "{\"failure-rate-threshold\": 90}",
                OPERATOR,
                OPERATOR_PASSWORD,
                "Origin",
                "null");
        assertThat(settings.statusCode()).isEqualTo(403);
        assertThat(breakerState()).isEqualTo("CLOSED");

        // The console itself (same origin), and a script (curl sends no Origin), still work.
        HttpResponse<String> console = postState(
                "wholesaler",
                OPEN,
                OPERATOR,
                OPERATOR_PASSWORD,
                "Origin",
                "http://localhost:" + port,
                "Sec-Fetch-Site",
                "same-origin");
        assertThat(console.statusCode()).isEqualTo(200);
        assertThat(postState("wholesaler", "{\"state\":\"AUTO\"}", OPERATOR, OPERATOR_PASSWORD)
                        .statusCode())
                .isEqualTo(200);
    }

    @Test
    void wrongPasswordIsRejectedWith401AndChangesNothing() {
        HttpResponse<String> wrong = postState("wholesaler", OPEN, OPERATOR, "not-the-password");

        assertThat(wrong.statusCode()).isEqualTo(401);
        assertThat(breakerState()).isEqualTo("CLOSED");
    }

    @Test
    void changingSettingsAtRuntimeNeedsAnOperatorToo() {
        String config = "/actuator/breakers/wholesaler/config";
        String threshold = "{\"failure-rate-threshold\": 90}";

        HttpResponse<String> anonymous = post(config, threshold, null, null);

        assertThat(anonymous.statusCode()).isEqualTo(401);
        assertThat(get(config).statusCode()).isEqualTo(200);
        assertThat(json(get(config))
                        .at("/settings/failure-rate-threshold/source")
                        .asText())
                .isEqualTo("YAML");

        HttpResponse<String> changed = post(config, threshold, OPERATOR, OPERATOR_PASSWORD);
        try {
            assertThat(changed.statusCode()).isEqualTo(200);
            assertThat(json(changed)
                            .at("/settings/failure-rate-threshold/value")
                            .asDouble())
                    .isEqualTo(90.0);
            assertThat(json(changed).get("principal").asText()).isEqualTo(OPERATOR);
        } finally {
            post(config, "{\"failure-rate-threshold\": null}", OPERATOR, OPERATOR_PASSWORD);
        }
        assertThat(json(get(config))
                        .at("/settings/failure-rate-threshold/source")
                        .asText())
                .isEqualTo("YAML");
    }

    @Test
    void readingTheBreakersNeedsNoCredentials() {
        assertThat(get("/actuator/breakers").statusCode()).isEqualTo(200);
        assertThat(get("/actuator/breakers/wholesaler").statusCode()).isEqualTo(200);
    }

    @Test
    void operatorForcesTheBreakerOpenAndReleasesIt() {
        HttpResponse<String> forced = postState("wholesaler", OPEN, OPERATOR, OPERATOR_PASSWORD);

        assertThat(forced.statusCode()).isEqualTo(200);
        assertThat(json(forced).get("previousState").asText()).isEqualTo("CLOSED");
        assertThat(json(forced).get("state").asText()).isEqualTo("FORCED_OPEN");
        assertThat(breakerState()).isEqualTo("FORCED_OPEN");
        JsonNode force = breaker("wholesaler").get("transitions").get(0);
        assertThat(force.get("cause").asText()).isEqualTo("OPERATOR");
        assertThat(force.get("principal").asText()).isEqualTo(OPERATOR);
        long requests = wholesalerRequests();
        assertThat(servedBy(deliveryTime("9780134685991"))).isEqualTo("fallback-open");
        assertThat(wholesalerRequests()).isEqualTo(requests);

        HttpResponse<String> released = postState("wholesaler", "{\"state\":\"AUTO\"}", OPERATOR, OPERATOR_PASSWORD);

        assertThat(released.statusCode()).isEqualTo(200);
        assertThat(breakerState()).isEqualTo("CLOSED");
        assertThat(servedBy(deliveryTime("9780134685991"))).isEqualTo("live");
    }

    @Test
    void otherActuatorEndpointsNeedTheOperator() {
        assertThat(get("/actuator").statusCode()).isEqualTo(401);
    }
}
