package io.breaker.spring.logging;

import io.breaker.BreakerConfig;
import io.breaker.BreakerMetrics;
import io.breaker.BreakerRegistry;
import io.breaker.CircuitBreaker;
import io.breaker.State;
import io.breaker.Transition;
import io.breaker.TransitionCause;
import io.breaker.TransitionListener;
import io.breaker.WaitReason;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import java.time.Duration;
import java.util.Locale;

/**
 * Logs every transition of every breaker of a registry as one key=value line on the logger
 * {@value #LOGGER_NAME}, so that a log alert can match it:
 * <pre>
 * WARN  breaker=wholesaler from=CLOSED to=OPEN cause=FAILURE_RATE failureRate=60.0 slowCallRate=-1.0 threshold=50.0 callsInWindow=10 lastFailureType=java.net.SocketTimeoutException
 * INFO  breaker=wholesaler from=OPEN to=HALF_OPEN cause=WAIT_ELAPSED ...
 * </pre>
 * A change to {@code OPEN} ends with {@code waitReason=CONFIGURED}, {@code waitReason=RETRY_AFTER}
 * when the failure that opened the breaker asked for a longer wait, or {@code waitReason=BACKOFF}
 * when failed probes made it longer (see {@code wait-multiplier}), then {@code wait=} the wait as
 * an ISO-8601 duration ({@code PT20S}): both as the transition decided them, carried by the
 * {@link Transition} itself. A change to {@code OPEN} or {@code FORCED_OPEN} is a WARN; every other
 * change is an INFO. The line is built only on a transition, never on a call.
 */
public final class BreakerTransitionLogger implements TransitionListener {

    /** The logger every transition line goes to. */
    public static final String LOGGER_NAME = "io.breaker.transitions";

    private final Log logger;

    BreakerTransitionLogger(Log logger) {
        this.logger = logger;
    }

    /** A transition logger writing to {@value #LOGGER_NAME}. */
    public BreakerTransitionLogger() {
        this(LogFactory.getLog(LOGGER_NAME));
    }

    /** Attaches a logger to every breaker of {@code registry}, now and later. */
    public static BreakerTransitionLogger bind(BreakerRegistry registry) {
        BreakerTransitionLogger listener = new BreakerTransitionLogger();
        listener.bindTo(registry);
        return listener;
    }

    /** Attaches this logger to every breaker of {@code registry}, now and later (transitions only). */
    public void bindTo(BreakerRegistry registry) {
        registry.addTransitionListener(this);
    }

    @Override
    public void onTransition(CircuitBreaker breaker, Transition transition) {
        log(transition, breaker.getConfig());
    }

    void log(Transition transition, BreakerConfig config) {
        boolean opened = transition.to() == State.OPEN || transition.to() == State.FORCED_OPEN;
        if (opened ? !logger.isWarnEnabled() : !logger.isInfoEnabled()) {
            return;
        }
        String line = line(transition, config);
        if (opened) {
            logger.warn(line);
        } else {
            logger.info(line);
        }
    }

    /** The key=value line for a transition; keys and their order are part of the documented format. */
    static String line(Transition transition, BreakerConfig config) {
        BreakerMetrics metrics = transition.metrics();
        WaitReason waitReason = transition.waitReason();
        Duration wait = transition.waitDuration();
        return "breaker=" + transition.breaker()
                + " from=" + transition.from()
                + " to=" + transition.to()
                + " cause=" + transition.cause()
                + " failureRate=" + rate(metrics.failureRate())
                + " slowCallRate=" + rate(metrics.slowCallRate())
                + " threshold=" + rate(threshold(transition.cause(), config))
                + " callsInWindow=" + metrics.calls()
                + " lastFailureType=" + (transition.lastFailureType() == null ? "none" : transition.lastFailureType())
                + (waitReason == null ? "" : " waitReason=" + waitReason)
                + (wait == null ? "" : " wait=" + wait);
    }

    /** The threshold that the cause refers to: the slow-call one for a slow-call trip, else the failure one. */
    private static float threshold(TransitionCause cause, BreakerConfig config) {
        return cause == TransitionCause.SLOW_CALL_RATE
                ? config.getSlowCallRateThreshold()
                : config.getFailureRateThreshold();
    }

    private static String rate(float percent) {
        return String.format(Locale.ROOT, "%.1f", percent);
    }

    @Override
    public String toString() {
        return "BreakerTransitionLogger{logger=" + LOGGER_NAME + "}";
    }
}
