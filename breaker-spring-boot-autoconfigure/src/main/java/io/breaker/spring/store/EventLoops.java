package io.breaker.spring.store;

/**
 * Whether the current thread is an event loop that must never wait for a store: a Netty event loop
 * (a client's own, which may be the very thread that has to deliver the answer, or Reactor Netty's)
 * or a Reactor non-blocking scheduler thread. A store sends such a caller's operation and adopts its
 * answer when it comes; the caller's breaker decides locally meanwhile. Decided once per thread class, by name, so that
 * neither Netty nor Reactor needs to be on the classpath.
 */
public final class EventLoops {

    private static final ClassValue<Boolean> NON_BLOCKING = new ClassValue<>() {
        @Override
        protected Boolean computeValue(Class<?> type) {
            for (Class<?> c = type; c != null; c = c.getSuperclass()) {
                if (c.getName().equals("io.netty.util.concurrent.FastThreadLocalThread")) {
                    return true;
                }
                for (Class<?> contract : c.getInterfaces()) {
                    if (contract.getName().equals("reactor.core.scheduler.NonBlocking")) {
                        return true;
                    }
                }
            }
            return false;
        }
    };

    private EventLoops() {}

    /** Whether the calling thread must not block. */
    public static boolean isCurrent() {
        return NON_BLOCKING.get(Thread.currentThread().getClass());
    }
}
