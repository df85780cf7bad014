package io.breaker.spring.aop;

import io.breaker.spring.CircuitProtected;
import io.breaker.spring.ResultPredicate;
import io.breaker.spring.autoconfigure.BreakerAutoConfiguration;
import io.breaker.spring.autoconfigure.BreakerFailureAnalyzer;
import io.breaker.spring.test.BootLine;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.http.ResponseEntity;
import reactor.core.publisher.Mono;

import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A {@code record-result} that cannot work stops start-up: a status that is none, a range written
 * backwards, a bean that does not exist, both rules at once, and a protected method whose result
 * type cannot fit its breaker's rule. Each message names the property (or the method and the
 * breaker) and what would be accepted.
 */
@Tag(BootLine.TAG)
class RecordResultStartupFailureTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, BreakerAutoConfiguration.class));

    record Quote(int status) {}

    static class Entities {
        @CircuitProtected(name = "wholesaler")
        public ResponseEntity<String> stock(String isbn) {
            return ResponseEntity.ok("3");
        }
    }

    static class Text {
        @CircuitProtected(name = "wholesaler")
        public String stock(String isbn) {
            return "3";
        }
    }

    static class MonoOfText {
        @CircuitProtected(name = "wholesaler")
        public Mono<String> stock(String isbn) {
            return Mono.just("3");
        }
    }

    static class Nothing {
        @CircuitProtected(name = "wholesaler")
        public void order(String isbn) {}
    }

    @Test
    void aCodeAbove599() {
        FailureAnalysis analysis = failureFor("breakers.instances.wholesaler.record-result.http-status=500-599,600");
        assertThat(analysis.getDescription())
                .contains("'breakers.instances.wholesaler.record-result.http-status[1]'")
                .contains("'600'")
                .contains("not an HTTP status code");
        assertThat(analysis.getAction()).contains("HTTP status codes from 100 to 599 and inclusive ranges of them");
    }

    @Test
    void aRangeWrittenBackwards() {
        FailureAnalysis analysis = failureFor("breakers.defaults.record-result.http-status=500-400");
        assertThat(analysis.getDescription())
                .contains("'breakers.defaults.record-result.http-status[0]'")
                .contains("'500-400'")
                .contains("the range ends before it starts");
        assertThat(analysis.getAction()).contains("such as [500-599, 429]");
    }

    @Test
    void somethingThatIsNoCode() {
        FailureAnalysis analysis = failureFor("breakers.instances.wholesaler.record-result.http-status=abc");
        assertThat(analysis.getDescription())
                .contains("'breakers.instances.wholesaler.record-result.http-status[0]'")
                .contains("'abc'")
                .contains("neither a status code nor a range of them");
    }

    @Test
    void aPredicateBeanThatDoesNotExistNamesTheOnesThatDo() {
        AtomicReference<FailureAnalysis> analysis = new AtomicReference<>();
        runner.withBean("serverErrors", ResultPredicate.class, () -> result -> false)
                .withPropertyValues("breakers.instances.wholesaler.record-result.predicate=serverErorrs")
                .run(context -> {
                    assertThat(context).hasFailed();
                    analysis.set(new BreakerFailureAnalyzer().analyze(context.getStartupFailure()));
                });
        assertThat(analysis.get().getDescription())
                .contains("'breakers.instances.wholesaler.record-result.predicate'")
                .contains("'serverErorrs'")
                .contains("no such bean");
        assertThat(analysis.get().getAction())
                .contains("a bean that implements io.breaker.spring.ResultPredicate")
                .contains("serverErrors");
    }

    @Test
    void aBeanThatIsNoPredicate() {
        AtomicReference<FailureAnalysis> analysis = new AtomicReference<>();
        runner.withBean("clock", java.time.Clock.class, java.time.Clock::systemUTC)
                .withPropertyValues("breakers.defaults.record-result.predicate=clock")
                .run(context -> {
                    assertThat(context).hasFailed();
                    analysis.set(new BreakerFailureAnalyzer().analyze(context.getStartupFailure()));
                });
        assertThat(analysis.get().getDescription())
                .contains("'breakers.defaults.record-result.predicate'")
                .contains("does not implement io.breaker.spring.ResultPredicate");
    }

    @Test
    void bothRulesInOneSection() {
        FailureAnalysis analysis = failureFor(
                "breakers.instances.wholesaler.record-result.http-status=503",
                "breakers.instances.wholesaler.record-result.predicate=serverErrors");
        assertThat(analysis.getDescription())
                .contains("'breakers.instances.wholesaler.record-result'")
                .contains("both are set");
        assertThat(analysis.getAction()).contains("one of http-status").contains("or predicate");
    }

    @Test
    void aMethodReturningTextCannotBeCheckedForAStatus() {
        FailureAnalysis analysis =
                failureWith(Text.class, "breakers.instances.wholesaler.record-result.http-status=503");
        assertThat(analysis.getDescription())
                .contains(Text.class.getName() + ".stock(String)")
                .contains("the breaker 'wholesaler'")
                .contains("breakers.instances.wholesaler.record-result.http-status")
                .contains("java.lang.String carries no HTTP status");
        assertThat(analysis.getAction()).contains("Return ResponseEntity");
    }

    @Test
    void aMonoOfTextCannotBeCheckedForAStatusEither() {
        FailureAnalysis analysis = failureWith(MonoOfText.class, "breakers.defaults.record-result.http-status=503");
        assertThat(analysis.getDescription())
                .contains(MonoOfText.class.getName() + ".stock(String)")
                .contains("breakers.defaults.record-result.http-status")
                .contains("java.lang.String carries no HTTP status");
    }

    @Test
    void aVoidMethodHasNoResultToCheck() {
        FailureAnalysis analysis =
                failureWith(Nothing.class, "breakers.instances.wholesaler.record-result.http-status=503");
        assertThat(analysis.getDescription()).contains("order(String)").contains("void carries no HTTP status");
    }

    @Test
    void aMethodWhoseResultsThePredicateDoesNotTake() {
        AtomicReference<FailureAnalysis> analysis = new AtomicReference<>();
        runner.withBean("unavailableQuotes", ResultPredicate.class, () -> new ResultPredicate() {
                    @Override
                    public boolean isFailure(Object result) {
                        return ((Quote) result).status() == 503;
                    }

                    @Override
                    public Class<?> resultType() {
                        return Quote.class;
                    }
                })
                .withBean(Text.class)
                .withPropertyValues("breakers.instances.wholesaler.record-result.predicate=unavailableQuotes")
                .run(context -> {
                    assertThat(context).hasFailed();
                    analysis.set(new BreakerFailureAnalyzer().analyze(context.getStartupFailure()));
                });
        assertThat(analysis.get().getDescription())
                .contains(Text.class.getName() + ".stock(String)")
                .contains("breakers.instances.wholesaler.record-result.predicate")
                .contains("java.lang.String does not fit the bean 'unavailableQuotes', which takes "
                        + Quote.class.getName());
    }

    @Test
    void fittingMethodsStart() {
        runner.withBean(Entities.class)
                .withPropertyValues("breakers.instances.wholesaler.record-result.http-status=500-599,429")
                .run(context -> assertThat(context).hasNotFailed());
    }

    @Test
    void anEmptyListTurnsOffTheRuleAnInstanceWouldInherit() {
        runner.withBean(Text.class)
                .withPropertyValues(
                        "breakers.defaults.record-result.http-status=500-599",
                        "breakers.instances.wholesaler.record-result.http-status=")
                .run(context -> assertThat(context).hasNotFailed());
        assertThat(failureWith(Text.class, "breakers.defaults.record-result.http-status=500-599")
                        .getDescription())
                .as("without the empty list, the inherited rule applies")
                .contains("carries no HTTP status");
    }

    private FailureAnalysis failureWith(Class<?> beanClass, String... properties) {
        AtomicReference<FailureAnalysis> analysis = new AtomicReference<>();
        runner.withBean(beanClass).withPropertyValues(properties).run(context -> {
            assertThat(context).hasFailed();
            analysis.set(new BreakerFailureAnalyzer().analyze(context.getStartupFailure()));
        });
        assertThat(analysis.get()).as("a breaker-specific analysis").isNotNull();
        return analysis.get();
    }

    private FailureAnalysis failureFor(String... properties) {
        AtomicReference<FailureAnalysis> analysis = new AtomicReference<>();
        runner.withPropertyValues(properties).run(context -> {
            assertThat(context).hasFailed();
            analysis.set(new BreakerFailureAnalyzer().analyze(context.getStartupFailure()));
        });
        assertThat(analysis.get()).as("a breaker-specific analysis").isNotNull();
        return analysis.get();
    }
}
