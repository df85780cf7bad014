package io.breaker;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * On Java 21 and later, a call blocked in a socket read is given up at its timeout on a virtual thread:
 * the caller gets the fallback's answer, the failure is counted, and the read itself ends (a virtual
 * thread's socket read listens to the interrupt), so no thread stays blocked. Skipped on Java 17 (the
 * build's JDK); run with a newer one:
 *
 * <pre>
 * JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 ./mvnw -B -pl breaker-core test -Dspotless.check.skip=true \
 *     -Dtest=VirtualThreadCallTimeoutTest -Dsurefire.failIfNoSpecifiedTests=false
 * </pre>
 *
 * How long the caller waited past the timeout is measured and printed, but asserted only generously
 * (under the timeout plus one second): a loaded machine must not fail it.
 */
class VirtualThreadCallTimeoutTest {

    private static final Duration TIMEOUT = Duration.ofMillis(200);

    @Test
    void aSocketReadThatNeverEndsIsGivenUpAndItsVirtualThreadReleased() throws Exception {
        assumeTrue(CallTimeout.virtualThreadsAvailable(), "virtual threads need Java 21 or later");
        CircuitBreaker breaker = CircuitBreaker.of(
                "wholesaler",
                BreakerConfig.builder()
                        .slidingWindow(SlidingWindowType.COUNT_BASED, 4)
                        .minimumNumberOfCalls(4)
                        .callTimeout(TIMEOUT)
                        .build());
        CallTimeout timeout = CallTimeout.of(breaker, null);
        List<Socket> accepted = Collections.synchronizedList(new ArrayList<>());
        try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Thread acceptor = new Thread(() -> {
                while (!silent.isClosed()) {
                    try {
                        accepted.add(silent.accept()); // accepts, and never answers
                    } catch (IOException closed) {
                        return;
                    }
                }
            });
            acceptor.setDaemon(true);
            acceptor.start();
            AtomicReference<Thread> reader = new AtomicReference<>();
            CompletableFuture<Throwable> readEnded = new CompletableFuture<>();

            long started = System.nanoTime();
            String answer;
            try {
                answer = timeout.call(breaker, () -> {
                    reader.set(Thread.currentThread());
                    try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), silent.getLocalPort());
                            InputStream in = socket.getInputStream()) {
                        return "read " + in.read(); // blocks: the server never writes
                    } catch (Throwable ended) {
                        readEnded.complete(ended);
                        throw ended;
                    }
                });
            } catch (CallTimeoutException timedOut) {
                answer = "fallback"; // what a fallback would answer
            }
            long waitedNanos = System.nanoTime() - started;
            System.out.printf(
                    "call-timeout %d ms: the caller waited %.1f ms (%.1f ms past the timeout)%n",
                    TIMEOUT.toMillis(), waitedNanos / 1e6, (waitedNanos - TIMEOUT.toNanos()) / 1e6);

            assertThat(answer).isEqualTo("fallback");
            assertThat(waitedNanos).isLessThan(TIMEOUT.plusSeconds(1).toNanos());
            assertThat(breaker.getMetrics().failedCalls()).isEqualTo(1);
            // Thread.isVirtual() is Java 21 API, and this test compiles for Java 17
            assertThat(Thread.class.getMethod("isVirtual").invoke(reader.get())).isEqualTo(true);
            assertThat(reader.get().getName()).startsWith("breaker-timeout-wholesaler-");
            Throwable ended = readEnded.get(10, TimeUnit.SECONDS);
            System.out.println("the blocked read ended with " + ended);
            assertThat(ended).as("the read ended by the interrupt").isInstanceOf(IOException.class);
            reader.get().join(10_000);
            assertThat(reader.get().isAlive())
                    .as("the call's thread is released")
                    .isFalse();
            acceptor.interrupt();
        } finally {
            for (Socket socket : accepted) {
                socket.close();
            }
        }
    }
}
