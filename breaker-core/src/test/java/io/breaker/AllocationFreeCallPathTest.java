package io.breaker;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

/**
 * Behaviour, not speed: the calls below allocate nothing (or, for a throwing rejection, just the
 * exception). Bytes are counted by the JVM per thread, so the result does not depend on timing; how
 * fast these paths run is measured by the JMH module.
 */
class AllocationFreeCallPathTest {

    private static final int CALLS = 100_000;
    private static com.sun.management.ThreadMXBean threads;

    private final FakeClock clock = new FakeClock();

    @BeforeAll
    static void allocationCounting() {
        assumeThat(ManagementFactory.getThreadMXBean()).isInstanceOf(com.sun.management.ThreadMXBean.class);
        threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        assumeThat(threads.isThreadAllocatedMemorySupported()).isTrue();
        threads.setThreadAllocatedMemoryEnabled(true);
    }

    /** Bytes the current thread allocates per call of {@code call}, after a warm-up. */
    private static double bytesPerCall(BooleanSupplier call) {
        for (int i = 0; i < CALLS; i++) {
            call.getAsBoolean();
        }
        long before = threads.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < CALLS; i++) {
            call.getAsBoolean();
        }
        return (threads.getCurrentThreadAllocatedBytes() - before) / (double) CALLS;
    }

    /** Where the sanity check puts its allocations, so the JIT cannot remove them. */
    private static Object sink;

    @Test
    void measurementSeesAnAllocationThatEscapes() {
        assertThat(bytesPerCall(() -> (sink = new long[2]) != null)).isGreaterThanOrEqualTo(24.0);
    }

    @Test
    void rejectedPermissionCheckAllocatesNothing() {
        CircuitBreaker breaker =
                CircuitBreaker.of("open", Breakers.smallWindow().build(), clock);
        Breakers.trip(breaker);

        assertThat(bytesPerCall(() -> breaker.tryAcquirePermit() != CircuitBreaker.NO_PERMIT))
                .isLessThan(1.0);
        assertThat(breaker.getState()).isEqualTo(State.OPEN);
    }

    @Test
    void rejectedPermissionCheckInHalfOpenAllocatesNothing() {
        CircuitBreaker breaker =
                CircuitBreaker.of("half-open", Breakers.smallWindow().build(), clock);
        Breakers.trip(breaker);
        clock.advance(Breakers.WAIT);
        long permit = breaker.tryAcquirePermit();
        assertThat(permit).isNotEqualTo(CircuitBreaker.NO_PERMIT);

        assertThat(bytesPerCall(() -> breaker.tryAcquirePermit() != CircuitBreaker.NO_PERMIT))
                .isLessThan(1.0);
    }

    @Test
    void closedSuccessPathAllocatesNothingOnEitherWindow() {
        Supplier<String> call = () -> "ok";
        CircuitBreaker counted = CircuitBreaker.of("count", BreakerConfig.ofDefaults(), clock);
        CircuitBreaker timed = CircuitBreaker.of(
                "time",
                BreakerConfig.builder()
                        .slidingWindow(SlidingWindowType.TIME_BASED, 10)
                        .slowCallDurationThreshold(Duration.ofSeconds(1))
                        .build(),
                clock);

        assertThat(bytesPerCall(() -> counted.execute(call) != null)).isLessThan(1.0);
        assertThat(bytesPerCall(() -> {
                    long permit = timed.tryAcquirePermit();
                    timed.onSuccess(permit, 1_000L);
                    return permit != CircuitBreaker.NO_PERMIT;
                }))
                .isLessThan(1.0);
        assertThat(counted.getMetrics().calls()).isEqualTo(100);
    }

    @Test
    void throwingRejectionAllocatesOnlyTheExceptionAndBuildsNoMessage() {
        CircuitBreaker breaker =
                CircuitBreaker.of("open", Breakers.smallWindow().build(), clock);
        Breakers.trip(breaker);
        Supplier<String> call = () -> "never";

        double bytes = bytesPerCall(() -> {
            try {
                breaker.execute(call);
                return true;
            } catch (CircuitOpenException rejected) {
                return false;
            }
        });

        // One exception object with its three fields: well under what a message or stack trace would cost.
        assertThat(bytes).isLessThan(64.0);
    }
}
