package io.breaker.spring.call;

import io.micrometer.context.ContextRegistry;
import io.micrometer.context.ContextSnapshotFactory;
import io.micrometer.context.ThreadLocalAccessor;
import io.micrometer.context.integration.Slf4jThreadLocalAccessor;
import org.jspecify.annotations.Nullable;
import org.springframework.core.task.TaskDecorator;
import org.springframework.util.ClassUtils;

/**
 * What carries a timed call's context to the thread that runs it: Micrometer's context propagation
 * when {@code io.micrometer:context-propagation} is on the class path, then the application's own
 * {@link TaskDecorator} bean if it has one. Both decorate on the calling thread, where the context is.
 *
 * <p>Context propagation captures every thread-local accessor registered with its global
 * {@link ContextRegistry} (Spring Security's security context, Micrometer's current observation, and
 * whatever the application registers), and the whole SLF4J MDC through Micrometer's
 * {@link Slf4jThreadLocalAccessor} unless an MDC accessor is registered already; on the timed thread
 * they are set for the call and restored after it.
 */
public final class CallContext {

    private static final boolean CONTEXT_PROPAGATION_PRESENT =
            ClassUtils.isPresent("io.micrometer.context.ContextSnapshotFactory", CallContext.class.getClassLoader());

    private static final boolean SLF4J_PRESENT =
            ClassUtils.isPresent("org.slf4j.MDC", CallContext.class.getClassLoader());

    private CallContext() {}

    /**
     * The decorator for timed calls: context propagation (if present) and then {@code application}
     * (if not {@code null}); {@code null} when there is neither.
     */
    public static @Nullable TaskDecorator decorator(@Nullable TaskDecorator application) {
        TaskDecorator propagation = CONTEXT_PROPAGATION_PRESENT ? Snapshots.decorator() : null;
        if (propagation == null) {
            return application;
        }
        if (application == null) {
            return propagation;
        }
        return task -> application.decorate(propagation.decorate(task));
    }

    /** Kept apart so that nothing loads context-propagation's classes when it is absent. */
    private static final class Snapshots {

        static TaskDecorator decorator() {
            ContextRegistry registry = new ContextRegistry();
            boolean mdc = false;
            for (ThreadLocalAccessor<?> accessor : ContextRegistry.getInstance().getThreadLocalAccessors()) {
                registry.registerThreadLocalAccessor(accessor);
                mdc |= Slf4jThreadLocalAccessor.KEY.equals(accessor.key());
            }
            if (!mdc && SLF4J_PRESENT) {
                registry.registerThreadLocalAccessor(new Slf4jThreadLocalAccessor());
            }
            ContextSnapshotFactory snapshots = ContextSnapshotFactory.builder()
                    .contextRegistry(registry)
                    .clearMissing(true) // a pooled thread runs the call with the caller's context only
                    .build();
            return task -> snapshots.captureAll().wrap(task);
        }
    }
}
