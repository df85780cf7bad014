package io.breaker.spring.actuate;

import io.breaker.BreakerConfig;
import io.breaker.BreakerRegistry;
import io.breaker.SlidingWindowType;
import io.breaker.spring.test.BootLine;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import javax.management.MBeanServer;
import javax.management.ObjectName;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The {@code breakers} endpoint over JMX: read, force, and a bad or missing state refused with the allowed values.
 */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.NONE,
        classes = BreakersEndpointJmxTest.App.class,
        properties = {
            "spring.jmx.enabled=true",
            "management.endpoints.jmx.exposure.include=breakers",
            "spring.jmx.unique-names=true",
            "management.endpoints.jmx.unique-names=true"
        })
@Tag(BootLine.TAG)
class BreakersEndpointJmxTest {

    @Autowired
    private BreakerRegistry registry;

    @BeforeEach
    void release() {
        registry.breaker("wholesaler").release();
    }

    @Test
    void readsOverJmx() throws Exception {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        ObjectName endpoint = endpoint(server);

        Object all = server.invoke(endpoint, "breakers", new Object[0], new String[0]);
        Object one =
                server.invoke(endpoint, "breaker", new Object[] {"wholesaler"}, new String[] {String.class.getName()});

        assertThat(all).asString().contains("name=wholesaler");
        assertThat(one).isInstanceOf(Map.class);
        Map<?, ?> breaker = (Map<?, ?>) one;
        assertThat(breaker.get("state")).isEqualTo("CLOSED");
        assertThat(breaker.get("shared")).isEqualTo(false);
        assertThat(String.valueOf(breaker.get("stateSince"))).startsWith("20");
        assertThat(((Map<?, ?>) breaker.get("config")).get("waitDurationInOpenState"))
                .isEqualTo("PT30S");
        assertThat(server.invoke(endpoint, "breaker", new Object[] {"nobody"}, new String[] {String.class.getName()}))
                .isNull();
    }

    @Test
    void forcesOverJmxAndRefusesABadStateWithTheAllowedValues() throws Exception {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        ObjectName endpoint = endpoint(server);
        String[] signature = {String.class.getName(), String.class.getName()};

        Object answer = server.invoke(endpoint, "changeState", new Object[] {"wholesaler", "open"}, signature);

        assertThat(answer).isInstanceOf(Map.class);
        assertThat(((Map<?, ?>) answer).get("state")).isEqualTo("FORCED_OPEN");
        assertThat(((Map<?, ?>) answer).get("changed")).isEqualTo(true);
        assertThat(registry.breaker("wholesaler").getState()).hasToString("FORCED_OPEN");
        assertThatThrownBy(() -> server.invoke(endpoint, "changeState", new Object[] {"wholesaler", "HALF"}, signature))
                .hasStackTraceContaining("state must be one of OPEN, CLOSED, AUTO; was 'HALF'");
        assertThat(registry.breaker("wholesaler").getState()).hasToString("FORCED_OPEN");
    }

    @Test
    void refusesAMissingStateOverJmxWithTheAllowedValues() throws Exception {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        ObjectName endpoint = endpoint(server);
        String[] signature = {String.class.getName(), String.class.getName()};

        assertThatThrownBy(() -> server.invoke(endpoint, "changeState", new Object[] {"wholesaler", null}, signature))
                .hasStackTraceContaining("state must be one of OPEN, CLOSED, AUTO; it is missing");
        assertThat(registry.breaker("wholesaler").getState()).hasToString("CLOSED");
    }

    private static ObjectName endpoint(MBeanServer server) throws Exception {
        Set<ObjectName> names =
                server.queryNames(new ObjectName("org.springframework.boot:type=Endpoint,name=Breakers,*"), null);
        assertThat(names).as("the breakers endpoint's MBean").isNotEmpty();
        return names.iterator().next();
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class App {

        @Bean
        BreakerRegistry breakerRegistry() {
            BreakerConfig config = BreakerConfig.builder()
                    .slidingWindow(SlidingWindowType.COUNT_BASED, 4)
                    .minimumNumberOfCalls(4)
                    .waitDurationInOpenState(Duration.ofSeconds(30))
                    .build();
            BreakerRegistry registry = BreakerRegistry.of(config, Map.of());
            registry.breaker("wholesaler");
            return registry;
        }
    }
}
