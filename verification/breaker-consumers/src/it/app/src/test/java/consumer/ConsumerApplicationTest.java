package consumer;

import io.breaker.BreakerRegistry;
import io.breaker.State;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.core.SpringVersion;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import static org.assertj.core.api.Assertions.assertThat;

@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class ConsumerApplicationTest {

    @Autowired
    private ConsumerApplication.Supplier supplier;

    @Autowired
    private BreakerRegistry registry;

    @Value("${local.server.port}")
    private int port;

    @Test
    void runsOnItsOwnLinesSpringWithTheBreakerWorking() throws Exception {
        String boot = System.getProperty("expected.spring-boot.version");
        assertThat(SpringBootVersion.getVersion()).isEqualTo(boot);
        // Spring Framework 6 with Boot 3, 7 with Boot 4, spring-aop (which the breaker's advice needs)
        // included: nothing of the other line leaked in.
        String framework = boot.startsWith("3.") ? "6." : "7.";
        assertThat(SpringVersion.getVersion()).startsWith(framework);
        assertThat(org.springframework.aop.SpringProxy.class.getPackage().getImplementationVersion())
                .startsWith(framework);

        for (int i = 0; i < 4; i++) {
            assertThat(supplier.price("book")).isEqualTo("unknown");
        }
        assertThat(registry.breaker("supplier").getState()).isEqualTo(State.OPEN);

        HttpClient http = HttpClient.newHttpClient();
        String health = http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/actuator/health"))
                .build(), HttpResponse.BodyHandlers.ofString()).body();
        assertThat(health).contains("\"breakers\"", "\"supplier\"", "\"state\":\"OPEN\"");
        String breaker = http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port
                + "/actuator/breakers/supplier")).build(), HttpResponse.BodyHandlers.ofString()).body();
        assertThat(breaker).contains("\"state\":\"OPEN\"");
    }
}
