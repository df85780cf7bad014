package io.breaker.kotlin

import io.breaker.CircuitOpenException
import io.breaker.NanoClock
import io.breaker.spring.CircuitProtected
import kotlinx.coroutines.CompletableDeferred
import kotlinx.coroutines.CoroutineName
import kotlinx.coroutines.currentCoroutineContext
import kotlinx.coroutines.awaitCancellation
import kotlinx.coroutines.delay
import kotlinx.coroutines.flow.Flow
import kotlinx.coroutines.flow.flow
import kotlinx.coroutines.flow.flowOf
import kotlinx.coroutines.withTimeout
import org.springframework.boot.SpringBootConfiguration
import org.springframework.boot.autoconfigure.EnableAutoConfiguration
import org.springframework.context.annotation.Bean
import org.springframework.context.annotation.Import
import org.springframework.stereotype.Component
import org.springframework.stereotype.Service
import java.io.IOException
import java.time.Duration
import java.util.concurrent.CancellationException
import java.util.concurrent.atomic.AtomicInteger
import java.util.concurrent.atomic.AtomicLong

/** A bookshop written in Kotlin: its catalogue protects the calls to a wholesaler that can be switched off. */
@SpringBootConfiguration
@EnableAutoConfiguration
@Import(Catalogue::class, Wholesaler::class)
class BookshopApplication {

    /** The breakers' clock: the tests move it instead of sleeping through a breaker's wait. */
    @Bean
    fun virtualClock() = VirtualClock()

    @Bean
    fun nanoClock(clock: VirtualClock) = NanoClock { clock.now.get() }
}

class VirtualClock {
    val now = AtomicLong()

    fun advance(by: Duration) {
        now.addAndGet(by.toNanos())
    }
}

/** The remote dependency, as a test double: it fails while down and counts what reaches it. */
@Component
class Wholesaler {
    @Volatile
    var down = false
    val calls = AtomicInteger()
    val cancelled = AtomicInteger()
    /** Completed when a call that hangs has started; the tests cancel it then. */
    @Volatile
    var hanging = CompletableDeferred<Unit>()

    suspend fun price(isbn: String): Int {
        calls.incrementAndGet()
        delay(1) // suspends for real, as a network call would
        if (down) throw IOException("wholesaler down")
        return isbn.length
    }

    suspend fun hangingPrice(isbn: String): Int {
        calls.incrementAndGet()
        if (down) throw IOException("wholesaler down")
        try {
            hanging.complete(Unit)
            awaitCancellation()
        } catch (e: CancellationException) {
            cancelled.incrementAndGet()
            throw e
        }
    }

    /** The name of the coroutine that last collected the reviews. */
    @Volatile
    var reviewsCoroutine: String? = null

    /** Emits reviews, then keeps the stream open: only a partial read ends it. */
    fun reviews(isbn: String): Flow<String> = flow {
        calls.incrementAndGet()
        reviewsCoroutine = currentCoroutineContext()[CoroutineName]?.name
        if (down) throw IOException("wholesaler down")
        emit("great")
        emit("long")
        awaitCancellation()
    }
}

@Service
class Catalogue(private val wholesaler: Wholesaler) {

    @CircuitProtected(name = "prices", fallbackMethod = "priceFallback")
    suspend fun price(isbn: String): Int = wholesaler.price(isbn)

    /** The name of the coroutine the last fallback ran in: the caller's context reaches it. */
    @Volatile
    var fallbackCoroutine: String? = null

    private suspend fun priceFallback(isbn: String, e: CircuitOpenException): Int {
        fallbackCoroutine = currentCoroutineContext()[CoroutineName]?.name
        return -1 // open: no call made
    }

    private suspend fun priceFallback(isbn: String, e: Throwable): Int = 0 // the call failed

    @CircuitProtected(name = "slow-prices")
    suspend fun slowPrice(isbn: String): Int = wholesaler.hangingPrice(isbn)

    @CircuitProtected(name = "probed-prices")
    suspend fun probedPrice(isbn: String): Int = wholesaler.hangingPrice(isbn)

    /** The call's own timeout, as every remote call needs: when it expires, the wholesaler failed. */
    @CircuitProtected(name = "timed-prices", fallbackMethod = "priceFallback")
    suspend fun timedPrice(isbn: String): Int = withTimeout(20) { wholesaler.hangingPrice(isbn) }

    @CircuitProtected(name = "reviews", fallbackMethod = "reviewsFallback")
    fun reviews(isbn: String): Flow<String> = wholesaler.reviews(isbn)

    private fun reviewsFallback(isbn: String, e: Throwable): Flow<String> =
        flowOf(if (e is CircuitOpenException) "reviews later" else "no reviews")

    @CircuitProtected(name = "ratings")
    fun ratings(isbn: String): Flow<String> = wholesaler.reviews(isbn)

    @CircuitProtected(name = "suspended-reviews", fallbackMethod = "suspendedReviewsFallback")
    suspend fun suspendedReviews(isbn: String): Flow<String> {
        delay(1)
        return wholesaler.reviews(isbn)
    }

    private suspend fun suspendedReviewsFallback(isbn: String, e: Throwable): Flow<String> =
        flowOf(if (e is CircuitOpenException) "reviews later" else "no reviews")
}
