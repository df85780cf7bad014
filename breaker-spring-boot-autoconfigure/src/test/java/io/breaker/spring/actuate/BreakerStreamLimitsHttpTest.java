package io.breaker.spring.actuate;

import io.breaker.spring.test.BootLine;
import io.breaker.spring.test.TestUsers;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;
import org.springframework.test.annotation.DirtiesContext;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The stream's slots over real HTTP: one client (a user, or an address when anonymous) cannot take them
 * all, anonymous readers cannot take those of signed-in operators, and a refusal says when to come back.
 * The clients hold their streams without reading, as a careless or hostile one would.
 */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        classes = BreakerStreamLimitsHttpTest.App.class,
        properties = "management.endpoints.web.exposure.include=breakers")
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_EACH_TEST_METHOD)
@Tag(BootLine.TAG)
class BreakerStreamLimitsHttpTest {

    private static final String STREAM = "/actuator/breakers/stream";

    private final List<StreamSocket> held = new ArrayList<>();

    @LocalServerPort
    private int port;

    @AfterEach
    void letGo() throws IOException {
        for (StreamSocket socket : held) {
            socket.close();
        }
    }

    @Test
    void oneClientCannotTakeEverySlot() throws Exception {
        for (int i = 0; i < BreakerEventStream.MAX_PER_CLIENT; i++) {
            assertThat(hold("127.0.0.1", null).status).as("stream %d", i + 1).isEqualTo(200);
        }

        StreamSocket refused = hold("127.0.0.1", null);

        assertThat(refused.status).isEqualTo(503);
        assertThat(refused.headers.get("retry-after")).matches("[1-9][0-9]*");
        assertThat(refused.body()).contains("\"status\":503", "at most 4 per client", "address 127.0.0.1");
        // Another client still gets one: the same address signed in, or another address.
        assertThat(hold("127.0.0.1", "alice").status).isEqualTo(200);
        assertThat(hold("127.0.0.2", null).status).isEqualTo(200);
        for (int i = 1; i < BreakerEventStream.MAX_PER_CLIENT; i++) {
            assertThat(hold("127.0.0.3", "alice").status).isEqualTo(200);
        }
        StreamSocket alice = hold("127.0.0.4", "alice");
        assertThat(alice.status)
                .as("a user is one client wherever they come from")
                .isEqualTo(503);
        assertThat(alice.body()).contains("user alice");
    }

    @Test
    void anonymousReadersLeaveHalfTheSlotsToSignedInOperators() throws Exception {
        for (String address : new String[] {"127.0.0.2", "127.0.0.3"}) {
            for (int i = 0; i < BreakerEventStream.MAX_PER_CLIENT; i++) {
                assertThat(hold(address, null).status).isEqualTo(200);
            }
        }

        StreamSocket refused = hold("127.0.0.4", null);

        assertThat(refused.status).isEqualTo(503);
        assertThat(refused.headers.get("retry-after")).matches("[1-9][0-9]*");
        assertThat(refused.body()).contains("anonymous readers already hold 8 of the 16");
        for (String operator : new String[] {"alice", "bob"}) {
            for (int i = 0; i < BreakerEventStream.MAX_PER_CLIENT; i++) {
                assertThat(hold("127.0.0.4", operator).status).isEqualTo(200);
            }
        }
    }

    @Test
    void whenEverySlotIsTakenTheRefusalSaysWhenToRetry() throws Exception {
        for (String operator : new String[] {"alice", "bob", "carol", "dave"}) {
            for (int i = 0; i < BreakerEventStream.MAX_PER_CLIENT; i++) {
                assertThat(hold("127.0.0.1", operator).status).isEqualTo(200);
            }
        }

        StreamSocket refused = hold("127.0.0.1", "erin");

        assertThat(refused.status).isEqualTo(503);
        assertThat(Integer.parseInt(refused.headers.get("retry-after"))).isBetween(1, 60);
        assertThat(refused.body()).contains("already 16 subscribers");
    }

    private StreamSocket hold(String from, String user) throws IOException {
        StreamSocket socket = StreamSocket.open(port, STREAM, from, user);
        held.add(socket);
        return socket;
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(TestUsers.class)
    static class App {}
}
