package io.breaker.spring.aop;

import io.breaker.CircuitOpenException;
import io.breaker.spring.CircuitProtected;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;

/** Beans protected by {@code @CircuitProtected}, shared by the aspect tests. */
final class Services {

    private Services() {}

    /** Overloaded fallbacks: the most specific exception type wins. */
    static class Wholesaler {

        private final AtomicInteger calls = new AtomicInteger();
        private volatile RuntimeException failure;

        /** Not protected: read through the proxy, which has no state of its own. */
        public int calls() {
            return calls.get();
        }

        public void failWith(RuntimeException failure) {
            this.failure = failure;
        }

        @CircuitProtected(name = "wholesaler", fallbackMethod = "deliveryFallback")
        public int deliveryDays(String isbn) {
            calls.incrementAndGet();
            if (failure != null) {
                throw failure;
            }
            return 3;
        }

        private int deliveryFallback(String isbn, CircuitOpenException rejected) {
            return 14;
        }

        private int deliveryFallback(String isbn, IllegalStateException failure) {
            return 21;
        }

        private int deliveryFallback(String isbn) {
            return 30;
        }
    }

    /** No fallback: the caller sees the original exception or the rejection. */
    static class Catalogue {

        private volatile RuntimeException failure;

        public void failWith(RuntimeException failure) {
            this.failure = failure;
        }

        @CircuitProtected(name = "catalogue")
        public String title(String isbn) {
            if (failure != null) {
                throw failure;
            }
            return "Dune";
        }
    }

    /** A void method whose fallback takes the exception. */
    static class Notifier {

        private final List<String> sent = new ArrayList<>();
        private final List<String> deferred = new ArrayList<>();
        private volatile RuntimeException failure;

        public List<String> sent() {
            return sent;
        }

        public List<String> deferred() {
            return deferred;
        }

        public void failWith(RuntimeException failure) {
            this.failure = failure;
        }

        @CircuitProtected(name = "notifier", fallbackMethod = "notifyLater")
        public void notify(String message) {
            if (failure != null) {
                throw failure;
            }
            sent.add(message);
        }

        void notifyLater(String message, Throwable cause) {
            deferred.add(message + " after " + cause.getClass().getSimpleName());
        }
    }

    /** Every public method protected by the class-level annotation. */
    @CircuitProtected(name = "inventory")
    static class Inventory {

        public int stock(String isbn) {
            return 5;
        }

        public int reserved(String isbn) {
            return 1;
        }

        @CircuitProtected(name = "inventory-audit")
        public int audited(String isbn) {
            return 2;
        }

        @Override
        public String toString() {
            return "Inventory";
        }
    }

    /** Asynchronous methods. */
    static class Quotes {

        private volatile CompletableFuture<Integer> next = new CompletableFuture<>();
        private final AtomicInteger calls = new AtomicInteger();

        public CompletableFuture<Integer> next() {
            return next;
        }

        public void next(CompletableFuture<Integer> next) {
            this.next = next;
        }

        public int calls() {
            return calls.get();
        }

        @CircuitProtected(name = "quotes", fallbackMethod = "quoteFallback")
        public CompletableFuture<Integer> quote(String isbn) {
            calls.incrementAndGet();
            return next;
        }

        private volatile @Nullable Throwable fallbackCause;

        public @Nullable Throwable fallbackCause() {
            return fallbackCause;
        }

        private CompletableFuture<Integer> quoteFallback(String isbn, Throwable cause) {
            fallbackCause = cause;
            return CompletableFuture.completedFuture(-1);
        }

        @CircuitProtected(name = "stages")
        public CompletionStage<Integer> stage(String isbn) {
            calls.incrementAndGet();
            return next;
        }
    }

    /** Reactor methods. */
    static class Reviews {

        private final AtomicInteger subscriptions = new AtomicInteger();
        private volatile RuntimeException failure;

        public int subscriptions() {
            return subscriptions.get();
        }

        public void failWith(RuntimeException failure) {
            this.failure = failure;
        }

        @CircuitProtected(name = "reviews", fallbackMethod = "ratingFallback")
        public Mono<Integer> rating(String isbn) {
            return Mono.defer(() -> {
                subscriptions.incrementAndGet();
                return failure != null ? Mono.error(failure) : Mono.just(4);
            });
        }

        private Mono<Integer> ratingFallback(String isbn, Throwable cause) {
            return Mono.just(0);
        }

        @CircuitProtected(name = "review-feed")
        public Flux<String> feed(String isbn) {
            return Flux.defer(() -> {
                subscriptions.incrementAndGet();
                return failure != null ? Flux.error(failure) : Flux.just("great", "long", "sandy");
            });
        }

        @CircuitProtected(name = "review-feed", fallbackMethod = "feedFallback")
        public Flux<String> feedWithFallback(String isbn) {
            return feed(isbn);
        }

        private Flux<String> feedFallback(String isbn) {
            return Flux.just("no reviews");
        }
    }

    /** Uses a breaker name that is not configured anywhere. */
    static class Unconfigured {

        @CircuitProtected(name = "typo-wholesailer")
        public int ping() {
            return 1;
        }
    }

    /** An interface-based bean, for JDK dynamic proxies. */
    interface Shipping {
        String carrier(String isbn);
    }

    static class DefaultShipping implements Shipping {

        @Override
        @CircuitProtected(name = "shipping", fallbackMethod = "carrierFallback")
        public String carrier(String isbn) {
            throw new IllegalStateException("carrier api down");
        }

        private String carrierFallback(String isbn, Throwable cause) {
            return "post";
        }
    }
}
