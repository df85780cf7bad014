package io.breaker.spring.call;

import io.breaker.CallTimeout;
import io.breaker.CircuitBreaker;
import org.jspecify.annotations.Nullable;
import org.springframework.core.task.TaskDecorator;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;

/**
 * The call timeout of each breaker ({@code call-timeout}) as the Spring integrations run it, shared by
 * the {@code @CircuitProtected} advice and the Spring Cloud factories: a {@link CallTimeout} per
 * breaker that has one, made when an integration first meets the breaker (at start-up for every
 * annotated method) and kept. Its calls run on the executor {@code call-timeout-executor} names, or
 * on a new virtual thread each; every task is first wrapped by the context decorator, on the calling
 * thread, so that what the call reads from thread locals (the security context, the MDC, the current
 * observation) is there on the thread that runs it ({@link CallContext}).
 *
 * <p>A breaker without {@code call-timeout} has no {@code CallTimeout}: its integrations keep their
 * untimed path, chosen once.
 */
public final class CallTimeouts {

    /** No executor beans, no context: calls with a timeout run on virtual threads, as they are. */
    public static final CallTimeouts VIRTUAL_THREADS = new CallTimeouts(breaker -> null, null);

    /**
     * Which executor runs the timed calls of a breaker. Throws when the configuration cannot work (an
     * executor bean that does not exist, or none named on a JVM without virtual threads), naming the
     * property.
     */
    @FunctionalInterface
    public interface Executors {

        /** The executor for {@code breaker}'s timed calls, or {@code null} for a virtual thread per call. */
        @Nullable
        Executor executorFor(CircuitBreaker breaker);
    }

    private final Executors executors;
    private final @Nullable TaskDecorator context;
    private final Map<String, Optional<CallTimeout>> timeouts = new ConcurrentHashMap<>();

    /**
     * @param executors which executor runs each breaker's timed calls
     * @param context   wraps each timed call on the calling thread to carry its context, or {@code null}
     */
    public CallTimeouts(Executors executors, @Nullable TaskDecorator context) {
        this.executors = executors;
        this.context = context;
    }

    /**
     * The call timeout of {@code breaker}, or {@code null} when it has none (or there is no breaker).
     * Not for the call path: integrations ask once and keep the answer.
     */
    public @Nullable CallTimeout of(@Nullable CircuitBreaker breaker) {
        if (breaker == null || breaker.getConfig().getCallTimeout() == null) {
            return null;
        }
        return timeouts.computeIfAbsent(breaker.getName(), name -> Optional.of(create(breaker)))
                .orElse(null);
    }

    private CallTimeout create(CircuitBreaker breaker) {
        Executor chosen = executors.executorFor(breaker);
        Executor runner = chosen != null ? chosen : CallTimeout.virtualThreads(breaker.getName());
        TaskDecorator decorator = context;
        Executor carrying = decorator == null ? runner : task -> runner.execute(decorator.decorate(task));
        return CallTimeout.of(breaker.getName(), breaker.getConfig().getCallTimeout(), carrying);
    }
}
