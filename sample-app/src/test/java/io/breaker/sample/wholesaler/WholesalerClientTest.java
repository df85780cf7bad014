package io.breaker.sample.wholesaler;

import io.breaker.sample.books.Isbn;
import io.breaker.sample.simulator.SimulatorProperties;
import io.breaker.sample.simulator.WholesalerMode;
import io.breaker.sample.simulator.WholesalerSimulator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.test.util.TestSocketUtils;
import org.springframework.web.client.RestClient;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The client sorts every outcome of a real HTTP call into days, "unknown book" or "unavailable";
 * no Spring context, a real simulator on a free port.
 */
class WholesalerClientTest {

    private static final Isbn KNOWN = Isbn.parse("9780134685991");
    private static final Isbn UNKNOWN = Isbn.parse("9781234567897");

    private WholesalerSimulator simulator;
    private WholesalerClient client;

    @BeforeEach
    void startSimulator() {
        simulator = new WholesalerSimulator(
                new SimulatorProperties(true, TestSocketUtils.findAvailableTcpPort(), Duration.ofSeconds(2)));
        simulator.start();
        client = clientFor(simulator.baseUrl());
    }

    @AfterEach
    void stopSimulator() {
        simulator.close();
    }

    @Test
    void healthyWholesalerGivesTheDays() {
        assertThat(client.deliveryDays(KNOWN)).isEqualTo(2);
    }

    @Test
    void notFoundIsAnUnknownBookNotAnOutage() {
        assertThatThrownBy(() -> client.deliveryDays(UNKNOWN))
                .isExactlyInstanceOf(UnknownBookException.class)
                .hasMessage("The wholesaler does not know the book 9781234567897");
    }

    @Test
    void serviceUnavailableMeansUnavailable() {
        simulator.switchTo(WholesalerMode.FAILING);

        assertThatThrownBy(() -> client.deliveryDays(KNOWN))
                .isExactlyInstanceOf(WholesalerUnavailableException.class)
                .hasMessage("The wholesaler answered 503");
    }

    @Test
    void tooManyRequestsMeansUnavailable() {
        simulator.switchTo(WholesalerMode.THROTTLING);

        assertThatThrownBy(() -> client.deliveryDays(KNOWN))
                .isExactlyInstanceOf(WholesalerUnavailableException.class)
                .hasMessage("The wholesaler answered 429");
    }

    @Test
    void readTimeoutMeansUnavailable() {
        simulator.switchTo(WholesalerMode.SLOW);

        assertThatThrownBy(() -> client.deliveryDays(KNOWN))
                .isExactlyInstanceOf(WholesalerUnavailableException.class)
                .hasMessageContaining("did not answer")
                .hasMessageContaining("HttpTimeoutException");
    }

    @Test
    void refusedConnectionMeansUnavailableAndNothingIsReceived() {
        simulator.switchTo(WholesalerMode.DOWN);

        assertThatThrownBy(() -> client.deliveryDays(KNOWN))
                .isExactlyInstanceOf(WholesalerUnavailableException.class)
                .hasMessageContaining("did not answer");
        assertThat(simulator.requestsReceived()).isZero();
    }

    @Test
    void comingBackUpFromDownListensOnTheSamePortAgain() {
        simulator.switchTo(WholesalerMode.DOWN);
        simulator.switchTo(WholesalerMode.HEALTHY);

        assertThat(client.deliveryDays(KNOWN)).isEqualTo(2);
    }

    @Test
    void anotherClientErrorIsOurBugNeitherUnavailableNorUnknown() {
        WholesalerClient misconfigured = clientFor(simulator.baseUrl() + "/wrong-prefix");

        assertThatThrownBy(() -> misconfigured.deliveryDays(KNOWN))
                .isExactlyInstanceOf(IllegalStateException.class)
                .hasMessage("The wholesaler rejected our request with 400");
    }

    private static WholesalerClient clientFor(String url) {
        return new WholesalerClient(
                RestClient.builder(), new WholesalerProperties(url, Duration.ofMillis(500), Duration.ofMillis(300)));
    }
}
