package io.breaker.test;

import io.breaker.spring.autoconfigure.BreakerAutoConfiguration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Configuration;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

/** What a test that uses the kit wrongly is told: each case runs a test class and reads its failure. */
class MisconfiguredTestsTest {

    @Test
    void aSpringTestWithTheExtensionButWithoutAutoConfigureBreakersIsToldToAddIt() {
        assertThat(failureOf(WithoutAutoConfigureBreakers.class))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("No BreakerClock bean in the test's application context: annotate the test class with"
                        + " @AutoConfigureBreakers, which puts the breakers on a virtual clock");
    }

    @Test
    void aForcedBreakerThatDoesNotExistFailsTheTestWithTheNamesThatDo() {
        assertThat(failureOf(ForcingAMisspeltBreaker.class))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith(
                        "No breaker named 'wholesaller'; the breakers are [catalogue, supplier, wholesaler]");
    }

    private static Throwable failureOf(Class<?> testClass) {
        SummaryGeneratingListener listener = new SummaryGeneratingListener();
        LauncherFactory.create()
                .execute(
                        LauncherDiscoveryRequestBuilder.request()
                                .selectors(selectClass(testClass))
                                .build(),
                        listener);
        List<TestExecutionSummary.Failure> failures = listener.getSummary().getFailures();
        assertThat(failures).as("failures of %s", testClass.getSimpleName()).hasSize(1);
        return failures.get(0).getException();
    }

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration(BreakerAutoConfiguration.class)
    static class BreakersOnly {}

    @SpringBootTest(
            classes = BreakersOnly.class,
            webEnvironment = SpringBootTest.WebEnvironment.NONE,
            properties = "breakers.instances.wholesaler.wait-duration-in-open-state=5s")
    @ExtendWith(BreakerExtension.class)
    static class WithoutAutoConfigureBreakers {

        @Test
        void runs() {}
    }

    @SpringBootTest(
            classes = BreakersOnly.class,
            webEnvironment = SpringBootTest.WebEnvironment.NONE,
            properties = "breakers.instances.wholesaler.wait-duration-in-open-state=5s")
    @AutoConfigureBreakers
    static class ForcingAMisspeltBreaker {

        @Test
        @ForceBreaker(name = "wholesaller")
        void runs() {}
    }
}
