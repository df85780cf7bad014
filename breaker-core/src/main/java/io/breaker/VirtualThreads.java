package io.breaker;

import org.jspecify.annotations.Nullable;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadFactory;

/*
 * Virtual threads, reached from code compiled for Java 17. Thread.ofVirtual() exists from Java 21 on;
 * it is looked up once, when this class is first used, with method handles on the public API
 * (Thread.ofVirtual(), Thread.Builder.name(String, long), Thread.Builder.factory()). What the look-up
 * yields is a plain java.util.concurrent.ThreadFactory, a Java 17 type: no call made later goes
 * through a handle or through reflection, and nothing here needs a multi-release jar (one class file
 * for every Java version, which an IDE and a shaded jar read alike).
 *
 * A factory per breaker names its threads "breaker-timeout-<name>-<n>". The factory Thread.Builder
 * returns may be used by many threads at once.
 */

/** Starts a virtual thread per task on Java 21 and later (see the notes above). */
final class VirtualThreads {

    /** Thread.ofVirtual(), or null before Java 21. */
    private static final @Nullable MethodHandle OF_VIRTUAL;

    private static final @Nullable MethodHandle NAME;

    private static final @Nullable MethodHandle FACTORY;

    static {
        MethodHandle ofVirtual = null;
        MethodHandle name = null;
        MethodHandle factory = null;
        try {
            MethodHandles.Lookup lookup = MethodHandles.publicLookup();
            Class<?> builder = Class.forName("java.lang.Thread$Builder");
            Class<?> ofVirtualBuilder = Class.forName("java.lang.Thread$Builder$OfVirtual");
            ofVirtual = lookup.findStatic(Thread.class, "ofVirtual", MethodType.methodType(ofVirtualBuilder));
            name = lookup.findVirtual(builder, "name", MethodType.methodType(builder, String.class, long.class));
            factory = lookup.findVirtual(builder, "factory", MethodType.methodType(ThreadFactory.class));
        } catch (ReflectiveOperationException beforeJava21) {
            ofVirtual = null;
        }
        OF_VIRTUAL = ofVirtual;
        NAME = name;
        FACTORY = factory;
    }

    private VirtualThreads() {}

    /** Whether this JVM has virtual threads (Java 21 and later). */
    static boolean available() {
        return OF_VIRTUAL != null;
    }

    /**
     * An executor that starts one new virtual thread per task, named after {@code breakerName}.
     *
     * @throws UnsupportedOperationException before Java 21
     */
    static Executor perTask(String breakerName) {
        if (OF_VIRTUAL == null) {
            throw new UnsupportedOperationException("virtual threads need Java 21 or later; this is Java "
                    + Runtime.version().feature());
        }
        ThreadFactory threads;
        try {
            Object builder = OF_VIRTUAL.invoke();
            builder = NAME.invoke(builder, "breaker-timeout-" + breakerName + "-", 0L);
            threads = (ThreadFactory) FACTORY.invoke(builder);
        } catch (RuntimeException | Error unchecked) {
            throw unchecked;
        } catch (Throwable unexpected) {
            throw new IllegalStateException("cannot build a virtual thread factory", unexpected);
        }
        return new PerTask(threads);
    }

    /** Starts a new thread of {@code threads} for each task. */
    private record PerTask(ThreadFactory threads) implements Executor {

        @Override
        public void execute(Runnable task) {
            threads.newThread(task).start();
        }
    }
}
