package io.breaker.spring.aop;

import io.breaker.BreakerConfig;
import io.breaker.BreakerRegistry;
import io.breaker.CircuitBreaker;
import io.breaker.CircuitOpenException;
import io.breaker.SlidingWindowType;
import io.breaker.State;
import io.breaker.spring.CircuitProtected;
import io.breaker.spring.ResultPredicate;
import io.breaker.spring.test.BootLine;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.aop.framework.ProxyFactory;
import org.springframework.beans.factory.support.StaticListableBeanFactory;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ResponseEntity;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * What a result that {@code record-result} counts does, for each return type: it is recorded as a
 * failure and reaches the caller as it is, and no fallback answers it; a result the rule does not
 * count, and {@code null}, are successes; a predicate that throws ends the call with its exception.
 */
@Tag(BootLine.TAG)
class RecordResultOutcomesTest {

    private final BreakerRegistry registry = BreakerRegistry.of(
            BreakerConfig.builder()
                    .slidingWindow(SlidingWindowType.COUNT_BASED, 10)
                    .minimumNumberOfCalls(4)
                    .failureRateThreshold(50)
                    .waitDurationInOpenState(Duration.ofHours(1))
                    .build(),
            Map.of(),
            () -> 0L);

    private final StaticListableBeanFactory beans = new StaticListableBeanFactory();

    /** The record a backup price list answers with, and the predicate that counts it. */
    record Quote(String isbn, boolean fromBackupList) {}

    static final class BackupQuotes implements ResultPredicate {
        final AtomicInteger asked = new AtomicInteger();

        @Override
        public boolean isFailure(Object result) {
            asked.incrementAndGet();
            if (((Quote) result).isbn().isEmpty()) {
                throw new IllegalStateException("a quote without an ISBN");
            }
            return ((Quote) result).fromBackupList();
        }

        @Override
        public Class<?> resultType() {
            return Quote.class;
        }
    }

    static class Shop {
        final AtomicInteger fallbacks = new AtomicInteger();
        volatile HttpStatus status = HttpStatus.SERVICE_UNAVAILABLE;

        @CircuitProtected(name = "stock", fallbackMethod = "stockFallback")
        public ResponseEntity<String> stock() {
            if (status == HttpStatus.I_AM_A_TEAPOT) {
                throw new IllegalStateException("connection reset");
            }
            return status == HttpStatus.NO_CONTENT
                    ? null
                    : ResponseEntity.status(status).body("from the wholesaler");
        }

        ResponseEntity<String> stockFallback(Throwable error) {
            fallbacks.incrementAndGet();
            return ResponseEntity.ok("from the cache");
        }

        @CircuitProtected(name = "quotes")
        public Quote quote(String isbn, boolean fromBackupList) {
            return new Quote(isbn, fromBackupList);
        }

        @CircuitProtected(name = "async")
        public CompletableFuture<ResponseEntity<String>> asyncStock() {
            return CompletableFuture.completedFuture(
                    ResponseEntity.status(status).body("later"));
        }

        @CircuitProtected(name = "mono")
        public Mono<ResponseEntity<String>> monoStock(boolean empty) {
            return empty
                    ? Mono.empty()
                    : Mono.just(ResponseEntity.status(status).build());
        }

        @CircuitProtected(name = "flux")
        public Flux<ResponseEntity<String>> pages() {
            return Flux.just(
                    ResponseEntity.ok("page 1"),
                    ResponseEntity.status(503).body("page 2"),
                    ResponseEntity.status(500).body("page 3"));
        }

        @CircuitProtected(name = "answers")
        public Answer answer() {
            return new Answer(status);
        }

        @CircuitProtected(name = "plain")
        public ResponseEntity<String> plain() {
            return ResponseEntity.status(status).build();
        }
    }

    /** A type of the application's that carries a status the way ClientHttpResponse does: getStatusCode(). */
    static class Answer {
        private final HttpStatus status;

        Answer(HttpStatus status) {
            this.status = status;
        }

        public HttpStatusCode getStatusCode() {
            return status;
        }
    }

    private final BackupQuotes backupQuotes = new BackupQuotes();
    private final Shop target = new Shop();
    private final ProtectedMethods methods;
    private final Shop shop;

    RecordResultOutcomesTest() {
        beans.addBean("backupQuotes", backupQuotes);
        RecordedResults.Rule serverErrors =
                RecordedResults.httpStatus("breakers.instances.stock.record-result.http-status", List.of("500-599"));
        RecordedResults results = new RecordedResults(
                Map.of(
                        "stock", serverErrors,
                        "async", serverErrors,
                        "mono", serverErrors,
                        "flux", serverErrors,
                        "answers", serverErrors,
                        "quotes",
                                RecordedResults.predicate(
                                        "breakers.instances.quotes.record-result.predicate", "backupQuotes", beans)),
                null);
        methods = new ProtectedMethods(() -> registry, () -> results);
        ProxyFactory factory = new ProxyFactory(target);
        factory.setProxyTargetClass(true);
        factory.addAdvisor(new CircuitProtectedAdvisor(methods, 0));
        shop = (Shop) factory.getProxy();
    }

    @Test
    void aCountedResultReachesTheCallerAsItIsWithoutTheFallbackAndTripsTheBreaker() {
        for (int i = 0; i < 4; i++) {
            ResponseEntity<String> answer = shop.stock();
            assertThat(answer.getStatusCode()).isEqualTo(HttpStatus.SERVICE_UNAVAILABLE);
            assertThat(answer.getBody()).isEqualTo("from the wholesaler");
        }
        assertThat(target.fallbacks)
                .as("a counted result never goes to the fallback")
                .hasValue(0);
        assertThat(breaker("stock").getState()).isEqualTo(State.OPEN);

        assertThat(shop.stock().getBody())
                .as("a rejection still goes to the fallback")
                .isEqualTo("from the cache");
        assertThat(target.fallbacks).hasValue(1);
    }

    @Test
    void resultsOutsideTheRuleAndNullAreSuccessesAndExceptionsStillGoToTheFallback() {
        target.status = HttpStatus.NOT_FOUND;
        shop.stock();
        target.status = HttpStatus.NO_CONTENT; // the method returns null
        assertThat(shop.stock()).isNull();
        target.status = HttpStatus.I_AM_A_TEAPOT; // the method throws
        assertThat(shop.stock().getBody()).isEqualTo("from the cache");

        assertThat(breaker("stock").getMetrics().calls()).isEqualTo(3);
        assertThat(breaker("stock").getMetrics().failedCalls()).isEqualTo(1);
    }

    @Test
    void aPredicateBeanDecidesForItsBreakerAndIsAskedOncePerCall() {
        shop.quote("978-3", false);
        shop.quote("978-3", true);

        assertThat(backupQuotes.asked).hasValue(2);
        assertThat(breaker("quotes").getMetrics().calls()).isEqualTo(2);
        assertThat(breaker("quotes").getMetrics().failedCalls()).isEqualTo(1);
        assertThat(breaker("quotes").getLastFailureType()).isEqualTo(Quote.class.getName());
    }

    @Test
    void aPredicateThatThrowsEndsTheCallWithItsException() {
        assertThatThrownBy(() -> shop.quote("", false))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("a quote without an ISBN");

        assertThat(breaker("quotes").getMetrics().failedCalls()).isEqualTo(1);
        assertThat(breaker("quotes").getLastFailureType()).isEqualTo(IllegalStateException.class.getName());
    }

    @Test
    void aFutureIsJudgedByTheValueItCompletesWith() {
        assertThat(shop.asyncStock().join().getStatusCode()).isEqualTo(HttpStatus.SERVICE_UNAVAILABLE);
        target.status = HttpStatus.OK;
        assertThat(shop.asyncStock().join().getBody()).isEqualTo("later");

        assertThat(breaker("async").getMetrics().calls()).isEqualTo(2);
        assertThat(breaker("async").getMetrics().failedCalls()).isEqualTo(1);
    }

    @Test
    void aMonoIsJudgedByItsElementAndAnEmptyMonoIsASuccess() {
        assertThat(shop.monoStock(false).block().getStatusCode()).isEqualTo(HttpStatus.SERVICE_UNAVAILABLE);
        assertThat(shop.monoStock(true).block()).isNull();

        assertThat(breaker("mono").getMetrics().calls()).isEqualTo(2);
        assertThat(breaker("mono").getMetrics().failedCalls()).isEqualTo(1);
    }

    @Test
    void aFluxIsOneFailedCallFromItsFirstCountedElementAndStillEmitsEveryElement() {
        List<ResponseEntity<String>> pages = shop.pages().collectList().block();

        assertThat(pages).extracting(ResponseEntity::getBody).containsExactly("page 1", "page 2", "page 3");
        assertThat(breaker("flux").getMetrics().calls()).isEqualTo(1);
        assertThat(breaker("flux").getMetrics().failedCalls()).isEqualTo(1);
    }

    @Test
    void anyResultWithAGetStatusCodeIsJudgedByIt() {
        shop.answer();
        target.status = HttpStatus.OK;
        shop.answer();

        assertThat(breaker("answers").getMetrics().calls()).isEqualTo(2);
        assertThat(breaker("answers").getMetrics().failedCalls()).isEqualTo(1);
        assertThat(breaker("answers").getLastFailureType()).isEqualTo(Answer.class.getName());
    }

    @Test
    void aBreakerWithoutTheRuleRunsThePathThatNeverLooksAtResults() throws NoSuchMethodException {
        target.status = HttpStatus.SERVICE_UNAVAILABLE;
        for (int i = 0; i < 4; i++) {
            shop.plain();
        }
        assertThat(breaker("plain").getMetrics().failedCalls()).isZero();
        assertThat(methods.callFor(Shop.class, Shop.class.getMethod("plain"))).isInstanceOf(SyncCall.class);
        assertThat(methods.callFor(Shop.class, Shop.class.getMethod("stock")))
                .isInstanceOf(ResultCheckingSyncCall.class);
    }

    @Test
    void aRejectedMonoIsAnErrorAsBefore() {
        for (int i = 0; i < 4; i++) {
            shop.monoStock(false).block();
        }
        assertThat(breaker("mono").getState()).isEqualTo(State.OPEN);
        assertThatThrownBy(() -> shop.monoStock(false).block()).isInstanceOf(CircuitOpenException.class);
    }

    private CircuitBreaker breaker(String name) {
        return registry.breaker(name);
    }
}
