package io.breaker.spring.aop;

import io.breaker.spring.ResultPredicate;
import io.breaker.spring.test.BootLine;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.support.StaticListableBeanFactory;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ResponseEntity;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The checks of {@code record-result} for calls whose result type is known only when a value arrives
 * (Spring Cloud's {@code run(supplier)}): every kind of status carrier is judged by its status, any
 * other value is a success, and a predicate sees only values of its result type.
 */
@Tag(BootLine.TAG)
class RecordedResultsForAnyResultTest {

    /** A client's own answer type, with the public status getter the rule looks for. */
    public static final class Answer {
        private final int status;

        Answer(int status) {
            this.status = status;
        }

        public HttpStatusCode getStatusCode() {
            return HttpStatusCode.valueOf(status);
        }
    }

    record Quote(boolean fromBackupList) {}

    @Test
    void httpStatusJudgesEveryStatusCarrierAndTakesAnyOtherValueAsASuccess() {
        RecordedResults results = new RecordedResults(
                Map.of(
                        "stock",
                        RecordedResults.httpStatus(
                                "breakers.instances.stock.record-result.http-status", List.of("500-599"))),
                null);
        ResultPredicate check = results.forAnyResult("stock");

        assertThat(check.isFailure(ResponseEntity.status(503).build())).isTrue();
        assertThat(check.isFailure(ResponseEntity.notFound().build())).isFalse();
        assertThat(check.isFailure(HttpStatus.BAD_GATEWAY)).isTrue();
        assertThat(check.isFailure(new Answer(500))).isTrue();
        assertThat(check.isFailure(new Answer(200))).isFalse();
        assertThat(check.isFailure("503")).as("a value that carries no status").isFalse();
        assertThat(results.forAnyResult("other"))
                .as("a breaker without the rule")
                .isNull();
    }

    @Test
    void aPredicateIsAskedOnlyAboutValuesOfItsResultType() {
        StaticListableBeanFactory beans = new StaticListableBeanFactory();
        beans.addBean("backupQuotes", new ResultPredicate() {
            @Override
            public boolean isFailure(Object result) {
                return ((Quote) result).fromBackupList();
            }

            @Override
            public Class<?> resultType() {
                return Quote.class;
            }
        });
        RecordedResults results = new RecordedResults(
                Map.of(),
                RecordedResults.predicate("breakers.defaults.record-result.predicate", "backupQuotes", beans));
        ResultPredicate check = results.forAnyResult("pricing");

        assertThat(check.isFailure(new Quote(true))).isTrue();
        assertThat(check.isFailure(new Quote(false))).isFalse();
        assertThat(check.isFailure("not a quote"))
                .as("another type is a success, not a ClassCastException")
                .isFalse();
    }
}
