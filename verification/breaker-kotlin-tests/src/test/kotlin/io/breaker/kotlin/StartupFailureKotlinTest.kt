package io.breaker.kotlin

import io.breaker.spring.CircuitProtected
import io.breaker.spring.aop.InvalidCircuitProtectedException
import io.breaker.spring.autoconfigure.BreakerFailureAnalyzer
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.assertThrows
import org.springframework.boot.SpringBootConfiguration
import org.springframework.boot.WebApplicationType
import org.springframework.boot.autoconfigure.EnableAutoConfiguration
import org.springframework.boot.builder.SpringApplicationBuilder
import org.springframework.context.annotation.Bean
import org.springframework.context.annotation.Import
import org.springframework.core.NestedExceptionUtils
import org.springframework.stereotype.Service
import java.nio.file.Files
import java.nio.file.Path
import java.util.concurrent.Executor

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

    @Service
    class TimedSuspendFun {
        @CircuitProtected(name = "timed")
        suspend fun price(isbn: String): Int = isbn.length
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(PlainFallback::class)
    class PlainFallbackApplication

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(TimedSuspendFun::class)
    class TimedSuspendFunApplication {
        @Bean
        fun pricesExecutor(): Executor = Executor { it.run() }
    }

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
        // The README shows this failure as Spring Boot prints it, for a class of its example's name.
        val analysis = BreakerFailureAnalyzer().analyze(failure)!!
        val printed = "Description:\n\n${analysis.description}\n\nAction:\n\n${analysis.action}"
            .replace(failure.beanClass, "com.example.shop.Catalogue")
        assertThat(readmeExample("A fallback that does not fit stops start-up, with the signatures that would, in Kotlin"))
            .isEqualTo(printed)
    }

    /** The text block after [marker] in the README at the repository's root, above the working directory. */
    private fun readmeExample(marker: String): String {
        var dir: Path? = Path.of("").toAbsolutePath()
        while (dir != null && !(Files.exists(dir.resolve("README.md")) && Files.exists(dir.resolve("breaker-core")))) {
            dir = dir.parent
        }
        val readme = Files.readString(checkNotNull(dir) { "no repository root above the working directory" }.resolve("README.md"))
        val at = readme.indexOf(marker)
        assertThat(at).`as`("the README's example").isNotNegative()
        val start = readme.indexOf("```text\n", at) + "```text\n".length
        return readme.substring(start, readme.indexOf("```", start)).trimEnd()
    }

    @Test
    fun aSuspendFallbackReturningAnotherTypeIsRefused() {
        val failure = startupFailure(WrongReturnTypeApplication::class.java)
        assertThat(failure.message)
            .contains("fallback suspend fun priceFallback(isbn: String, e: Throwable): String returns String")
            .contains("suspend fun priceFallback(isbn: String, e: Throwable): Int")
    }

    @Test
    fun aCallTimeoutOnASuspendFunIsRefusedWithTheWayOut() {
        val failure = startupFailure(
            TimedSuspendFunApplication::class.java,
            "--breakers.instances.timed.call-timeout=1s",
            "--breakers.instances.timed.call-timeout-executor=pricesExecutor",
        )
        assertThat(failure.method).isEqualTo("price(String)")
        assertThat(failure.message)
            .contains("its breaker 'timed' has a call-timeout, which does not apply to a suspend fun or a Flow")
        assertThat(failure.remedy).contains("Remove call-timeout from the breaker 'timed'", "withTimeout")
    }

    private fun startupFailure(application: Class<*>, vararg args: String): InvalidCircuitProtectedException {
        val thrown = assertThrows<Exception> {
            SpringApplicationBuilder(application).web(WebApplicationType.NONE).run(*args).close()
        }
        val cause = NestedExceptionUtils.getMostSpecificCause(thrown)
        assertThat(cause).isInstanceOf(InvalidCircuitProtectedException::class.java)
        return cause as InvalidCircuitProtectedException
    }
}
