package io.breaker;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Every setting is validated with a message that names it, its value and the allowed range. */
class BreakerConfigTest {

    @Test
    void defaultsAreDocumentedOnes() {
        BreakerConfig config = BreakerConfig.ofDefaults();

        assertThat(config.getSlidingWindowType()).isEqualTo(SlidingWindowType.COUNT_BASED);
        assertThat(config.getSlidingWindowSize()).isEqualTo(100);
        assertThat(config.getMinimumNumberOfCalls()).isEqualTo(10);
        assertThat(config.getFailureRateThreshold()).isEqualTo(50f);
        assertThat(config.getWaitDurationInOpenState()).isEqualTo(Duration.ofSeconds(30));
        assertThat(config.getPermittedCallsInHalfOpenState()).isEqualTo(1);
        assertThat(config.isSlowCallDetectionEnabled()).isFalse();
        assertThat(config.getProbeLease()).isPositive();
    }

    @Test
    void rejectsFailureRateThresholdOutsideZeroToHundred() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> BreakerConfig.builder().failureRateThreshold(150))
                .withMessage("failureRateThreshold must be a number in (0, 100], was 150.0");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> BreakerConfig.builder().failureRateThreshold(0))
                .withMessageContaining("failureRateThreshold")
                .withMessageContaining("(0, 100]")
                .withMessageContaining("0.0");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> BreakerConfig.builder().failureRateThreshold(Float.NaN))
                .withMessageContaining("failureRateThreshold")
                .withMessageContaining("NaN");
        assertThat(BreakerConfig.builder().failureRateThreshold(100).build().getFailureRateThreshold())
                .isEqualTo(100f);
    }

    @Test
    void rejectsSlowCallRateThresholdOutsideZeroToHundred() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> BreakerConfig.builder().slowCallRateThreshold(-5))
                .withMessage("slowCallRateThreshold must be a number in (0, 100], was -5.0");
    }

    @Test
    void rejectsZeroAndNegativeDurations() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> BreakerConfig.builder().waitDurationInOpenState(Duration.ZERO))
                .withMessage(
                        "waitDurationInOpenState must be a positive duration of at most 106751d (about 292 years), was PT0S");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> BreakerConfig.builder().waitDurationInOpenState(Duration.ofSeconds(-1)))
                .withMessage(
                        "waitDurationInOpenState must be a positive duration of at most 106751d (about 292 years), was PT-1S");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> BreakerConfig.builder().waitDurationInOpenState(null))
                .withMessageContaining("waitDurationInOpenState")
                .withMessageContaining("null");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> BreakerConfig.builder().slowCallDurationThreshold(Duration.ofMillis(-10)))
                .withMessageStartingWith("slowCallDurationThreshold must be a positive duration")
                .withMessageEndingWith(", was PT-0.01S");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> BreakerConfig.builder().probeLease(Duration.ZERO))
                .withMessage("probeLease must be a positive duration of at most 106751d (about 292 years), was PT0S");
    }

    @Test
    void slowCallDetectionIsOffWithANullThreshold() {
        BreakerConfig config =
                BreakerConfig.builder().slowCallDurationThreshold(Duration.ofSeconds(2)).build().toBuilder()
                        .slowCallDurationThreshold(null)
                        .build();

        assertThat(config.isSlowCallDetectionEnabled()).isFalse();
        assertThat(config.getSlowCallDurationThreshold()).isNull();
    }

    @Test
    void rejectsWindowSizesOutsideTheirRange() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> BreakerConfig.builder().slidingWindow(SlidingWindowType.COUNT_BASED, 0))
                .withMessageStartingWith(
                        "slidingWindowSize must be a whole number in [1, 1000000] (calls) for a COUNT_BASED window")
                .withMessageEndingWith(", was 0");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> BreakerConfig.builder().slidingWindow(SlidingWindowType.COUNT_BASED, 1_000_001))
                .withMessageContaining("slidingWindowSize")
                .withMessageContaining("1000001");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> BreakerConfig.builder().slidingWindow(SlidingWindowType.TIME_BASED, 3_601))
                .withMessage(
                        "slidingWindowSize must be a whole number in [1, 3600] (seconds) for a TIME_BASED window, was 3601");
        assertThatThrownBy(() -> BreakerConfig.builder().slidingWindow(null, 10))
                .hasMessageContaining("slidingWindowType")
                .hasMessageContaining("null");
    }

    @Test
    void rejectsMinimumNumberOfCallsBelowOne() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> BreakerConfig.builder().minimumNumberOfCalls(0))
                .withMessageStartingWith("minimumNumberOfCalls must be a whole number of at least 1")
                .withMessageEndingWith(", was 0");
    }

    @Test
    void rejectsMinimumNumberOfCallsLargerThanACountWindow() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> BreakerConfig.builder()
                        .slidingWindow(SlidingWindowType.COUNT_BASED, 20)
                        .minimumNumberOfCalls(21)
                        .build())
                .withMessage(
                        "minimumNumberOfCalls must be at most slidingWindowSize (20) for a COUNT_BASED window, was 21");
        // A time window holds any number of calls: the same minimum is fine there.
        assertThat(BreakerConfig.builder()
                        .slidingWindow(SlidingWindowType.TIME_BASED, 20)
                        .minimumNumberOfCalls(21)
                        .build()
                        .getMinimumNumberOfCalls())
                .isEqualTo(21);
    }

    @Test
    void rejectsPermittedProbesOutsideTheirRange() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> BreakerConfig.builder().permittedCallsInHalfOpenState(0))
                .withMessage("permittedCallsInHalfOpenState must be a whole number in [1, 1000], was 0");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> BreakerConfig.builder().permittedCallsInHalfOpenState(1001))
                .withMessage("permittedCallsInHalfOpenState must be a whole number in [1, 1000], was 1001");
    }

    @Test
    @SuppressWarnings({"unchecked", "rawtypes"})
    void rejectsExceptionListsHoldingNonThrowables() {
        List raw = List.of(String.class);
        assertThatIllegalArgumentException()
                .isThrownBy(() -> BreakerConfig.builder().recordExceptions(raw))
                .withMessage(
                        "recordExceptions must be a list of classes that extend java.lang.Throwable, was [class java.lang.String]");
        assertThatThrownBy(() -> BreakerConfig.builder().ignoreExceptions((List) null))
                .hasMessageContaining("ignoreExceptions");
    }

    @Test
    void isImmutableOnceBuilt() {
        BreakerConfig.Builder builder = BreakerConfig.builder().failureRateThreshold(30);
        BreakerConfig config = builder.build();

        builder.failureRateThreshold(90);

        assertThat(config.getFailureRateThreshold()).isEqualTo(30f);
        assertThat(config.toBuilder().build().getFailureRateThreshold()).isEqualTo(30f);
        assertThatThrownBy(() -> config.getRecordExceptions().add(Exception.class))
                .isInstanceOf(UnsupportedOperationException.class);
    }
}
