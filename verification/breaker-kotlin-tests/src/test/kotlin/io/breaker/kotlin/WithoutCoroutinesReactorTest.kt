package io.breaker.kotlin

import io.breaker.spring.CircuitProtected
import io.breaker.spring.aop.InvalidCircuitProtectedException
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.assertThrows
import org.springframework.boot.SpringBootConfiguration
import org.springframework.boot.WebApplicationType
import org.springframework.boot.autoconfigure.EnableAutoConfiguration
import org.springframework.boot.builder.SpringApplicationBuilder
import org.springframework.context.annotation.Import
import org.springframework.core.NestedExceptionUtils
import org.springframework.stereotype.Service
import org.springframework.util.ClassUtils

/**
 * Without kotlinx-coroutines-reactor, Spring's proxy cannot await a suspend fun: start-up stops and
 * names what to add. Runs in its own Surefire execution, whose class path lacks that library.
 */
class WithoutCoroutinesReactorTest {

    @Service
    class Prices {
        @CircuitProtected(name = "prices")
        suspend fun price(isbn: String): Int = isbn.length
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(Prices::class)
    class PricesApplication

    @Test
    fun aSuspendFunWithoutTheReactorBridgeStopsStartUp() {
        assertThat(ClassUtils.isPresent("kotlinx.coroutines.reactor.MonoKt", null)).isFalse()

        val thrown = assertThrows<Exception> {
            SpringApplicationBuilder(PricesApplication::class.java).web(WebApplicationType.NONE).run().close()
        }
        val failure = NestedExceptionUtils.getMostSpecificCause(thrown)
        assertThat(failure).isInstanceOf(InvalidCircuitProtectedException::class.java)
        assertThat(failure.message)
            .contains("Prices.price(String)")
            .contains("a suspend fun needs kotlinx-coroutines-reactor and kotlin-reflect on the class path")
        assertThat((failure as InvalidCircuitProtectedException).remedy)
            .contains("org.jetbrains.kotlinx:kotlinx-coroutines-reactor")
    }
}
