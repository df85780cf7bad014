package io.breaker.spring.aop;

import io.breaker.BreakerRegistry;
import io.breaker.spring.CircuitProtected;
import io.breaker.spring.autoconfigure.BreakerAutoConfiguration;
import io.breaker.spring.autoconfigure.BreakerFailureAnalyzer;
import io.breaker.spring.test.BootLine;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/** Annotation and naming mistakes that used to pass start-up, or fail it with a raw stack trace. */
@Tag(BootLine.TAG)
class AnnotationEdgeCasesTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(
                    AopAutoConfiguration.class, BreakerAutoConfiguration.class, BootLine.healthAutoConfiguration()));

    static class QualifiedFallback {
        @CircuitProtected(name = "dep", fallbackMethod = "Helper.fb")
        public String call(String in) {
            return in;
        }
    }

    @Test
    void aFallbackNamedWithItsClassIsToldToNameAMethodOfTheBeanAlone() {
        FailureAnalysis analysis = failureWith(QualifiedFallback.class);
        assertThat(analysis.getDescription()).contains("'Helper.fb' is not the name of a method");
        assertThat(analysis.getAction()).contains("fallbackMethod = \"fb\"").doesNotContain("Helper.fb(");
    }

    interface WithDefaultFallback {
        default String fallback(String in, Throwable error) {
            return "default:" + in;
        }
    }

    static class UsesTheDefault implements WithDefaultFallback {
        @CircuitProtected(name = "dep", fallbackMethod = "fallback")
        public String call(String in) {
            throw new IllegalStateException("down");
        }
    }

    @Test
    void aFallbackMayBeAnInterfacesDefaultMethod() {
        runner.withUserConfiguration(Beans.of(UsesTheDefault.class))
                .run(context -> assertThat(context.getBean(UsesTheDefault.class).call("x"))
                        .isEqualTo("default:x"));
    }

    static final class FinalService {
        @CircuitProtected(name = "dep")
        public String call(String in) {
            return in;
        }
    }

    @Test
    void aFinalClassIsExplainedInsteadOfFailingInsideTheProxyFactory() {
        FailureAnalysis analysis = failureWith(FinalService.class);
        assertThat(analysis.getDescription()).contains(FinalService.class.getName(), "the class is final");
        assertThat(analysis.getAction()).contains("Remove 'final'");
    }

    static class NullableFallbackForAnInt {
        @CircuitProtected(name = "dep", fallbackMethod = "fallback")
        public int days(String isbn) {
            return 3;
        }

        Integer fallback(String isbn) {
            return null;
        }
    }

    @Test
    void aWrapperFallbackForAPrimitiveMethodStopsStartUpInsteadOfFailingAtCallTime() {
        FailureAnalysis analysis = failureWith(NullableFallbackForAnInt.class);
        assertThat(analysis.getDescription()).contains("returns Integer, which may be null", "returns int");
    }

    static class BlankAroundTheName {
        @CircuitProtected(name = " dep ")
        public String call(String in) {
            return in;
        }
    }

    static class SlashInTheName {
        @CircuitProtected(name = "a/b")
        public String call(String in) {
            return in;
        }
    }

    @Test
    void aNameWithBlanksAroundItOrACharacterNoUrlCanCarryStopsStartUp() {
        assertThat(failureWith(BlankAroundTheName.class).getDescription())
                .contains("' dep ' starts or ends with a blank");
        assertThat(failureWith(SlashInTheName.class).getDescription()).contains("'a/b' holds '/'");
    }

    static class NamedLikeTheStream {
        @CircuitProtected(name = "stream")
        public String call(String in) {
            return in;
        }
    }

    @Test
    void theNamesOfTheEndpointsOwnRoutesStopStartUpWithTheReason() {
        assertThat(failureWith(NamedLikeTheStream.class).getDescription())
                .contains(
                        "'stream' is taken by the breakers endpoint",
                        "/actuator/breakers/stream is the operators' event stream");
        FailureAnalysis configured =
                failure(runner.withPropertyValues("breakers.instances.console.failure-rate-threshold=30"));
        assertThat(configured.getDescription())
                .contains("'breakers.instances.console'", "/actuator/breakers/console is the operators' console");
        runner.withPropertyValues("breakers.instances.Stream.failure-rate-threshold=30")
                .run(context -> assertThat(context).hasNotFailed());
    }

    static class ForeignName {
        @CircuitProtected(name = "zahlung-ü-支付")
        public String call(String in) {
            return in;
        }
    }

    @Test
    void lettersOfAnyScriptMakeAValidName() {
        runner.withUserConfiguration(Beans.of(ForeignName.class))
                .withPropertyValues("breakers.instances[zahlung-ü-支付].failure-rate-threshold=30")
                .run(context -> assertThat(context.getBean(BreakerRegistry.class)
                                .configFor("zahlung-ü-支付")
                                .getFailureRateThreshold())
                        .isEqualTo(30f));
    }

    static class CasedName {
        @CircuitProtected(name = "Dep")
        public String call(String in) {
            return in;
        }
    }

    static class UnderscoredName {
        @CircuitProtected(name = "my_breaker")
        public String call(String in) {
            return in;
        }
    }

    @Test
    void aConfiguredNameRewrittenByBindingStopsStartUpWithTheBracketSyntax() {
        FailureAnalysis foreign = failure(runner.withUserConfiguration(Beans.of(ForeignName.class))
                .withPropertyValues("breakers.instances.zahlung-ü-支付.failure-rate-threshold=30"));
        assertThat(foreign.getDescription())
                .contains("'zahlung-ü-支付' has no configuration", "breakers.instances.zahlung--");
        assertThat(foreign.getAction()).contains("breakers.instances.[zahlung-ü-支付].<setting>");

        FailureAnalysis cased = failure(runner.withUserConfiguration(Beans.of(CasedName.class))
                .withPropertyValues("breakers.instances.dep.failure-rate-threshold=30"));
        assertThat(cased.getAction()).contains("[Dep]");

        runner.withUserConfiguration(Beans.of(UnderscoredName.class))
                .withPropertyValues("breakers.instances.my_breaker.failure-rate-threshold=30")
                .run(context -> assertThat(context.getBean(BreakerRegistry.class)
                                .configFor("my_breaker")
                                .getFailureRateThreshold())
                        .isEqualTo(30f));
    }

    @Test
    void aConfiguredKeyThatIsNoValidNameStopsStartUp() {
        FailureAnalysis analysis =
                failure(runner.withPropertyValues("breakers.instances[a/b].failure-rate-threshold=30"));
        assertThat(analysis.getDescription())
                .contains("'breakers.instances.[a/b]'")
                .contains("holds '/'");
    }

    @Test
    void aMisspeltBreakerInDownWhenOpenStopsStartUpNamingTheNearestBreaker() {
        FailureAnalysis analysis = failure(runner.withPropertyValues(
                "breakers.instances.wholesaler.probe-lease=5s", "breakers.health.down-when-open=wholesailer"));
        assertThat(analysis.getDescription()).contains("'breakers.health.down-when-open'", "'wholesailer'");
        assertThat(analysis.getAction()).contains("'wholesaler'");
    }

    private FailureAnalysis failureWith(Class<?> service) {
        return failure(runner.withUserConfiguration(Beans.of(service)));
    }

    private static FailureAnalysis failure(ApplicationContextRunner runner) {
        AtomicReference<FailureAnalysis> analysis = new AtomicReference<>();
        runner.run(context -> {
            assertThat(context).hasFailed();
            analysis.set(new BreakerFailureAnalyzer().analyze(context.getStartupFailure()));
        });
        assertThat(analysis.get()).as("a breaker-specific analysis").isNotNull();
        return analysis.get();
    }

    /** Registers one bean of the given class. */
    static final class Beans {

        static Class<?> of(Class<?> type) {
            return switch (type.getSimpleName()) {
                case "QualifiedFallback" -> QualifiedFallbackConfig.class;
                case "UsesTheDefault" -> UsesTheDefaultConfig.class;
                case "FinalService" -> FinalServiceConfig.class;
                case "NullableFallbackForAnInt" -> NullableConfig.class;
                case "BlankAroundTheName" -> BlankConfig.class;
                case "SlashInTheName" -> SlashConfig.class;
                case "NamedLikeTheStream" -> StreamNameConfig.class;
                case "ForeignName" -> ForeignConfig.class;
                case "CasedName" -> CasedConfig.class;
                default -> UnderscoredConfig.class;
            };
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class QualifiedFallbackConfig {
        @Bean
        QualifiedFallback service() {
            return new QualifiedFallback();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class UsesTheDefaultConfig {
        @Bean
        UsesTheDefault service() {
            return new UsesTheDefault();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class FinalServiceConfig {
        @Bean
        FinalService service() {
            return new FinalService();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class NullableConfig {
        @Bean
        NullableFallbackForAnInt service() {
            return new NullableFallbackForAnInt();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class BlankConfig {
        @Bean
        BlankAroundTheName service() {
            return new BlankAroundTheName();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class SlashConfig {
        @Bean
        SlashInTheName service() {
            return new SlashInTheName();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class StreamNameConfig {
        @Bean
        NamedLikeTheStream service() {
            return new NamedLikeTheStream();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class ForeignConfig {
        @Bean
        ForeignName service() {
            return new ForeignName();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class CasedConfig {
        @Bean
        CasedName service() {
            return new CasedName();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class UnderscoredConfig {
        @Bean
        UnderscoredName service() {
            return new UnderscoredName();
        }
    }
}
