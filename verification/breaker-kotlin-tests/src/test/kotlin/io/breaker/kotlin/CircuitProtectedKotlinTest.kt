package io.breaker.kotlin

import io.breaker.BreakerRegistry
import io.breaker.CircuitBreaker
import io.breaker.CircuitOpenException
import io.breaker.State
import kotlinx.coroutines.CompletableDeferred
import kotlinx.coroutines.CoroutineName
import kotlinx.coroutines.TimeoutCancellationException
import kotlinx.coroutines.cancelAndJoin
import kotlinx.coroutines.flow.first
import kotlinx.coroutines.flow.take
import kotlinx.coroutines.flow.toList
import kotlinx.coroutines.launch
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withContext
import kotlinx.coroutines.withTimeout
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.BeforeEach
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.assertThrows
import org.springframework.beans.factory.annotation.Autowired
import org.springframework.boot.test.context.SpringBootTest
import org.springframework.core.SpringVersion
import java.io.IOException
import java.time.Duration

/**
 * `@CircuitProtected` on a suspend fun and on a Flow, in one application context shared by the tests
 * (each test has its own breaker).
 */
@SpringBootTest(
    classes = [BookshopApplication::class],
    properties = [
        "breakers.defaults.sliding-window-size=4",
        "breakers.defaults.minimum-number-of-calls=4",
        "breakers.defaults.failure-rate-threshold=50",
        "breakers.defaults.wait-duration-in-open-state=30s",
    ],
)
class CircuitProtectedKotlinTest(
    @Autowired private val catalogue: Catalogue,
    @Autowired private val wholesaler: Wholesaler,
    @Autowired private val registry: BreakerRegistry,
    @Autowired private val clock: VirtualClock,
) {

    @BeforeEach
    fun wholesalerUp() {
        wholesaler.down = false
        wholesaler.hanging = CompletableDeferred()
    }

    @Test
    fun runsOnTheSpringOfItsBootLine() {
        assertThat(SpringVersion.getVersion()).startsWith(System.getProperty("breaker.expected-spring"))
    }

    @Test
    fun aSuspendFunOpensAnswersFromItsFallbackAndOneProbeClosesIt(): Unit = runBlocking {
        val breaker = registry.breaker("prices")
        assertThat(catalogue.price("978-0")).isEqualTo(5)

        wholesaler.down = true
        repeat(3) { assertThat(catalogue.price("978-0")).isEqualTo(0) } // failed: the fallback answers
        assertThat(breaker.state).isEqualTo(State.OPEN)

        val reached = wholesaler.calls.get()
        repeat(5) { assertThat(catalogue.price("978-0")).isEqualTo(-1) } // rejected: the other overload
        assertThat(wholesaler.calls.get()).isEqualTo(reached)
        withContext(CoroutineName("checkout")) { catalogue.price("978-0") }
        assertThat(catalogue.fallbackCoroutine).isEqualTo("checkout")

        wholesaler.down = false
        clock.advance(Duration.ofSeconds(30))
        assertThat(catalogue.price("978-0")).isEqualTo(5) // the probe
        assertThat(breaker.state).isEqualTo(State.CLOSED)
        assertThat(wholesaler.calls.get()).isEqualTo(reached + 1)
    }

    @Test
    fun aCoroutineCancelledByATimeoutIsNotAFailure(): Unit = runBlocking {
        val breaker = registry.breaker("slow-prices")
        repeat(6) {
            wholesaler.hanging = CompletableDeferred()
            assertThrows<TimeoutCancellationException> { withTimeout(50) { catalogue.slowPrice("978-0") } }
        }
        assertThat(wholesaler.cancelled.get()).isGreaterThanOrEqualTo(6) // the calls ran, and were cancelled
        assertThat(breaker.metrics.failedCalls).isZero()
        assertThat(breaker.metrics.calls).isZero() // neither way
        assertThat(breaker.state).isEqualTo(State.CLOSED)
    }

    @Test
    fun aTimeoutInsideTheSuspendFunIsAFailure(): Unit = runBlocking {
        val breaker = registry.breaker("timed-prices")
        repeat(2) {
            wholesaler.hanging = CompletableDeferred()
            assertThat(catalogue.timedPrice("978-0")).isEqualTo(0) // the fallback for a failure
        }
        assertThat(breaker.metrics.failedCalls).isEqualTo(2)
    }

    @Test
    fun aCancelledProbeGivesItsPermitBack(): Unit = runBlocking {
        val breaker = registry.breaker("probed-prices")
        wholesaler.down = true
        repeat(4) { assertThrows<IOException> { catalogue.probedPrice("978-0") } }
        assertThat(breaker.state).isEqualTo(State.OPEN)
        wholesaler.down = false
        clock.advance(Duration.ofSeconds(30))

        val probe = launch { catalogue.probedPrice("978-0") }
        withTimeout(5_000) { wholesaler.hanging.await() } // the probe reached the wholesaler
        probe.cancelAndJoin()
        assertThat(breaker.state).isEqualTo(State.HALF_OPEN) // not a failure: still waiting for a probe

        // Had the cancelled probe kept its permit, this caller would be rejected and never arrive.
        wholesaler.hanging = CompletableDeferred()
        val next = launch { catalogue.probedPrice("978-0") }
        withTimeout(5_000) { wholesaler.hanging.await() }
        next.cancelAndJoin()
        assertThat(breaker.state).isEqualTo(State.HALF_OPEN)
    }

    @Test
    fun aFlowReadPartlyCountsAsASuccess(): Unit = runBlocking {
        val breaker: CircuitBreaker = registry.breaker("reviews")
        repeat(4) { assertThat(catalogue.reviews("978-0").take(1).toList()).containsExactly("great") }
        assertThat(breaker.metrics.calls).isEqualTo(4)
        assertThat(breaker.metrics.failedCalls).isZero()
        withContext(CoroutineName("reviews-page")) { catalogue.reviews("978-0").first() }
        assertThat(wholesaler.reviewsCoroutine).isEqualTo("reviews-page") // collected in the collector's context

        wholesaler.down = true
        repeat(2) { assertThat(catalogue.reviews("978-0").toList()).containsExactly("no reviews") }
        assertThat(breaker.state).isEqualTo(State.OPEN) // 2 failures in the last 4 calls: 50 %
        assertThat(breaker.metrics.failedCalls).isEqualTo(2)
        val reached = wholesaler.calls.get()
        assertThat(catalogue.reviews("978-0").toList()).containsExactly("reviews later")
        assertThat(wholesaler.calls.get()).isEqualTo(reached)
    }

    @Test
    fun anOpenBreakerFailsTheCollectionOfAFlowWithoutFallback(): Unit = runBlocking {
        val breaker = registry.breaker("ratings")
        wholesaler.down = true
        repeat(4) { assertThrows<IOException> { catalogue.ratings("978-0").toList() } }
        assertThat(breaker.state).isEqualTo(State.OPEN)

        val flow = catalogue.ratings("978-0") // builds the flow: nothing is asked yet
        assertThrows<CircuitOpenException> { flow.toList() }
    }

    @Test
    fun aSuspendFunReturningAFlowCountsAsAFlow(): Unit = runBlocking {
        val breaker = registry.breaker("suspended-reviews")
        repeat(4) { assertThat(catalogue.suspendedReviews("978-0").take(1).toList()).containsExactly("great") }
        assertThat(breaker.metrics.calls).isEqualTo(4)
        assertThat(breaker.metrics.failedCalls).isZero()

        wholesaler.down = true
        repeat(2) { assertThat(catalogue.suspendedReviews("978-0").toList()).containsExactly("no reviews") }
        assertThat(breaker.state).isEqualTo(State.OPEN)
        assertThat(catalogue.suspendedReviews("978-0").toList()).containsExactly("reviews later")
    }
}
