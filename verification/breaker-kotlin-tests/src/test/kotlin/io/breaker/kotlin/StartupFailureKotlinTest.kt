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

/** A suspend fun whose fallback does not fit stops start-up, with the signatures that would, in Kotlin. */
class StartupFailureKotlinTest {

    @Service
    class PlainFallback {
        @CircuitProtected(name = "prices", fallbackMethod = "priceFallback")
        suspend fun price(isbn: String): Int = isbn.length

        fun priceFallback(isbn: String, e: Throwable): Int = 0 // not a suspend fun
    }

    @Service
    class WrongReturnType {
        @CircuitProtected(name = "prices", fallbackMethod = "priceFallback")
        suspend fun price(isbn: String): Int = isbn.length

        suspend fun priceFallback(isbn: String, e: Throwable): String = "unknown"
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(PlainFallback::class)
    class PlainFallbackApplication

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(WrongReturnType::class)
    class WrongReturnTypeApplication

    @Test
    fun aFallbackThatIsNotASuspendFunIsRefused() {
        val failure = startupFailure(PlainFallbackApplication::class.java)
        assertThat(failure.method).isEqualTo("price(String)")
        assertThat(failure.message)
            .contains("no method named 'priceFallback'")
            .contains("found fun priceFallback(isbn: String, e: Throwable): Int")
            .contains(
                "Accepted fallback signatures: suspend fun priceFallback(isbn: String): Int" +
                    " or suspend fun priceFallback(isbn: String, e: Throwable): Int",
            )
    }

    @Test
    fun aSuspendFallbackReturningAnotherTypeIsRefused() {
        val failure = startupFailure(WrongReturnTypeApplication::class.java)
        assertThat(failure.message)
            .contains("fallback suspend fun priceFallback(isbn: String, e: Throwable): String returns String")
            .contains("suspend fun priceFallback(isbn: String, e: Throwable): Int")
    }

    private fun startupFailure(application: Class<*>): InvalidCircuitProtectedException {
        val thrown = assertThrows<Exception> {
            SpringApplicationBuilder(application).web(WebApplicationType.NONE).run().close()
        }
        val cause = NestedExceptionUtils.getMostSpecificCause(thrown)
        assertThat(cause).isInstanceOf(InvalidCircuitProtectedException::class.java)
        return cause as InvalidCircuitProtectedException
    }
}
