package io.breaker.kotlin

import io.micrometer.observation.ObservationRegistry
import io.micrometer.observation.tck.TestObservationRegistry
import io.micrometer.observation.tck.TestObservationRegistryAssert
import kotlinx.coroutines.flow.take
import kotlinx.coroutines.flow.toList
import kotlinx.coroutines.runBlocking
import org.assertj.core.api.Assertions.assertThat
import org.awaitility.Awaitility.await
import org.junit.jupiter.api.BeforeEach
import org.junit.jupiter.api.Test
import org.springframework.beans.factory.annotation.Autowired
import org.springframework.boot.test.context.SpringBootTest
import org.springframework.boot.test.context.TestConfiguration
import org.springframework.context.annotation.Bean
import java.time.Duration

/**
 * A suspend fun observed as `breaker.call` when the application has an observation registry: its
 * outcome, and its fallback as a child; likewise each collection of a plain method's Flow.
 */
@SpringBootTest(
    classes = [BookshopApplication::class, ObservedKotlinCallsTest.Observations::class],
    properties = [
        "breakers.defaults.sliding-window-size=4",
        "breakers.defaults.minimum-number-of-calls=4",
        "breakers.defaults.failure-rate-threshold=50",
        "breakers.defaults.wait-duration-in-open-state=30s",
    ],
)
class ObservedKotlinCallsTest(
    @Autowired private val catalogue: Catalogue,
    @Autowired private val wholesaler: Wholesaler,
    @Autowired private val observations: TestObservationRegistry,
) {

    @TestConfiguration(proxyBeanMethods = false)
    class Observations {
        @Bean
        fun observationRegistry(): ObservationRegistry = TestObservationRegistry.create()
    }

    @BeforeEach
    fun clear() {
        wholesaler.down = false
        observations.clear()
    }

    @Test
    fun aSuspendFunIsOneCallObservationWithItsOutcome(): Unit = runBlocking {
        assertThat(catalogue.price("978-0")).isEqualTo(5)

        // the wholesaler answers on another thread, which stops the observation as it hands the answer on
        await().atMost(Duration.ofSeconds(30)).untilAsserted {
            TestObservationRegistryAssert.assertThat(observations).hasSingleObservationThat().hasBeenStopped()
        }
        TestObservationRegistryAssert.assertThat(observations)
            .hasSingleObservationThat()
            .hasNameEqualTo("breaker.call")
            .hasLowCardinalityKeyValue("circuitbreaker.name", "prices")
            .hasLowCardinalityKeyValue("circuitbreaker.state", "closed")
            .hasLowCardinalityKeyValue("breaker.outcome", "success")
            .hasBeenStopped()
    }

    @Test
    fun aFailedSuspendFunIsAFailureAndItsFallbackAChild(): Unit = runBlocking {
        wholesaler.down = true

        assertThat(catalogue.price("978-0")).isEqualTo(0)

        await().atMost(Duration.ofSeconds(30)).untilAsserted {
            TestObservationRegistryAssert.assertThat(observations).hasNumberOfObservationsEqualTo(2)
            TestObservationRegistryAssert.assertThat(observations)
                .hasObservationWithNameEqualTo("breaker.call").that().hasBeenStopped()
        }
        TestObservationRegistryAssert.assertThat(observations)
            .hasNumberOfObservationsEqualTo(2)
            .hasAnObservation { call ->
                call.hasNameEqualTo("breaker.call").hasLowCardinalityKeyValue("breaker.outcome", "failure")
            }
            .hasAnObservation { fallback -> fallback.hasNameEqualTo("breaker.fallback").hasParentObservation() }
    }

    @Test
    fun eachCollectionOfAProtectedFlowIsOneCallObservation(): Unit = runBlocking {
        assertThat(catalogue.reviews("978-0").take(1).toList()).containsExactly("great")

        await().atMost(Duration.ofSeconds(30)).untilAsserted {
            TestObservationRegistryAssert.assertThat(observations).hasSingleObservationThat().hasBeenStopped()
        }
        TestObservationRegistryAssert.assertThat(observations)
            .hasSingleObservationThat()
            .hasNameEqualTo("breaker.call")
            .hasLowCardinalityKeyValue("circuitbreaker.name", "reviews")
            .hasLowCardinalityKeyValue("circuitbreaker.state", "closed")
            .hasLowCardinalityKeyValueWithKey("breaker.outcome")
    }

    @Test
    fun aFailedFlowIsAFailureAndItsFallbackAChild(): Unit = runBlocking {
        wholesaler.down = true

        assertThat(catalogue.reviews("978-0").toList()).containsExactly("no reviews")

        await().atMost(Duration.ofSeconds(30)).untilAsserted {
            TestObservationRegistryAssert.assertThat(observations).hasNumberOfObservationsEqualTo(2)
            TestObservationRegistryAssert.assertThat(observations)
                .hasObservationWithNameEqualTo("breaker.call").that().hasBeenStopped()
        }
        TestObservationRegistryAssert.assertThat(observations)
            .hasAnObservation { call ->
                call.hasNameEqualTo("breaker.call")
                    .hasLowCardinalityKeyValue("circuitbreaker.name", "reviews")
                    .hasLowCardinalityKeyValue("breaker.outcome", "failure")
            }
            .hasAnObservation { fallback -> fallback.hasNameEqualTo("breaker.fallback").hasParentObservation() }
    }
}
