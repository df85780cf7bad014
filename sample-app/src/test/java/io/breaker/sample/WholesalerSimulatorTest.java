package io.breaker.sample;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;

import static org.assertj.core.api.Assertions.assertThat;

/** The simulated wholesaler's control panel: switching modes, and refusing unknown ones with the allowed list. */
class WholesalerSimulatorTest extends BookshopHttpTest {

    @AfterEach
    void healthyAgain() {
        switchWholesaler("healthy");
    }

    @Test
    void switchesModeIgnoringCaseAndReportsIt() {
        assertThat(switchWholesaler("FAILING").get("mode").asText()).isEqualTo("failing");
        assertThat(json(get("/wholesaler")).get("mode").asText()).isEqualTo("failing");
    }

    @Test
    void refusesAnUnknownModeNamingTheAllowedOnes() {
        HttpResponse<String> response = put("/wholesaler/mode/sideways");

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(json(response).get("detail").asText())
                .isEqualTo("Unknown mode 'sideways'; allowed: [healthy, slow, failing, throttling, down]");
        assertThat(json(get("/wholesaler")).get("mode").asText()).isEqualTo("healthy");
    }

    @Test
    void countsTheRequestsItReceivesButNotThoseItRefusesWhileDown() {
        long before = wholesalerRequests();
        deliveryTime("9780134685991");
        assertThat(wholesalerRequests()).isEqualTo(before + 1);

        switchWholesaler("down");
        deliveryTime("9780134685991");

        assertThat(wholesalerRequests()).isEqualTo(before + 1);
    }
}
