package io.breaker.kotlin

import io.breaker.BreakerRegistry
import kotlinx.coroutines.flow.toList
import kotlinx.coroutines.runBlocking
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.springframework.beans.factory.annotation.Autowired
import org.springframework.boot.test.context.SpringBootTest

/**
 * `breakers.faults` on a suspend fun and on a Flow: an injected failure reaches the fallback as the
 * method's own would, and the wholesaler is never called.
 */
@SpringBootTest(
    classes = [BookshopApplication::class],
    properties = [
        "breakers.faults.prices.failure-rate=100",
        "breakers.faults.reviews.failure-rate=100",
    ],
)
class FaultInjectionKotlinTest(
    @Autowired private val catalogue: Catalogue,
    @Autowired private val wholesaler: Wholesaler,
    @Autowired private val registry: BreakerRegistry,
) {

    @Test
    fun aSuspendFunAndAFlowFailBeforeTheyRunAndTheFallbackAnswers(): Unit = runBlocking {
        val before = wholesaler.calls.get()

        assertThat(catalogue.price("978-0")).isEqualTo(0) // the fallback for a failed call
        assertThat(catalogue.reviews("978-0").toList()).containsExactly("no reviews")

        assertThat(wholesaler.calls.get()).isEqualTo(before)
        assertThat(registry.breaker("prices").metrics.failedCalls()).isEqualTo(1)
        assertThat(registry.breaker("reviews").metrics.failedCalls()).isEqualTo(1)
        assertThat(registry.breaker("prices").lastFailureType).isEqualTo("io.breaker.InjectedFaultException")
    }
}
