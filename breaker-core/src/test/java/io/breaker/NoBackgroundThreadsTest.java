package io.breaker;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/** No thread, timer or executor: time is compared on the calling thread. */
class NoBackgroundThreadsTest {

    /**
     * Names that would mean background work, or a lock, on the call path. Asking which thread calls
     * ({@code Thread.currentThread()}, to pick a cell of a striped count) starts and waits for nothing.
     */
    private static final Pattern FORBIDDEN = Pattern.compile(
            "\\b(Thread(?!\\.currentThread\\(\\))|Executors?|ExecutorService|ScheduledExecutorService|Timer|TimerTask|ForkJoinPool"
                    + "|CompletableFuture|synchronized|ReentrantLock|ReentrantReadWriteLock|StampedLock|LockSupport"
                    + "|wait\\s*\\(|notify(All)?\\s*\\()");

    @Test
    void creatingAndTripping100000BreakersStartsNoThread() {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        FakeClock clock = new FakeClock();
        BreakerConfig config = BreakerConfig.builder()
                .slidingWindow(SlidingWindowType.COUNT_BASED, 10)
                .minimumNumberOfCalls(2)
                .waitDurationInOpenState(Duration.ofSeconds(1))
                .build();
        Set<Long> before = liveThreadIds();
        long startedBefore = threads.getTotalStartedThreadCount();

        List<CircuitBreaker> breakers = new ArrayList<>(100_000);
        for (int i = 0; i < 100_000; i++) {
            CircuitBreaker breaker = CircuitBreaker.of("b" + i, config, clock);
            breaker.onError(breaker.tryAcquirePermit(), 0L, new IOException());
            breaker.onError(breaker.tryAcquirePermit(), 0L, new IOException());
            breakers.add(breaker);
        }
        clock.advance(Duration.ofSeconds(1));
        long probing = breakers.stream()
                .filter(b -> b.tryAcquirePermit() != CircuitBreaker.NO_PERMIT)
                .count();

        assertThat(breakers).allMatch(b -> b.getState() == State.HALF_OPEN);
        assertThat(probing).isEqualTo(100_000);
        assertThat(threads.getTotalStartedThreadCount()).as("threads started").isEqualTo(startedBefore);
        assertThat(liveThreadIds()).as("live threads").isSubsetOf(before);
    }

    /** The engine's sources: the state machine and the windows, and the integrations' way in. */
    private static final List<String> CALL_PATH_FILES = List.of(
            "CircuitBreaker.java",
            "Execution.java",
            "SlidingWindow.java",
            "CountWindow.java",
            "TimeWindow.java",
            "Phase.java",
            "Transitions.java",
            "Listeners.java",
            "TransitionsOnly.java",
            "FleetProtocol.java",
            "Reconfiguration.java",
            "Readings.java",
            "OperatorChanges.java",
            "internal/CallPath.java",
            "internal/Integration.java");

    @Test
    void callPathSourcesUseNoThreadTimerExecutorOrLock() throws IOException {
        Path main = Paths.get("src/main/java/io/breaker");
        List<Path> callPath = new ArrayList<>();
        for (String file : CALL_PATH_FILES) {
            callPath.add(main.resolve(file));
        }
        assertThat(callPath).allMatch(Files::isRegularFile); // the scan really reads the files

        List<String> findings = new ArrayList<>();
        for (Path file : callPath) {
            List<String> lines = Files.readAllLines(file);
            for (int i = 0; i < lines.size(); i++) {
                String code = withoutComment(lines.get(i));
                Matcher found = FORBIDDEN.matcher(code);
                if (found.find()) {
                    findings.add(
                            file.getFileName() + ":" + (i + 1) + ": " + found.group() + " in `" + code.trim() + "`");
                }
            }
        }

        assertThat(findings)
                .as("threads, timers, executors or locks on the call path")
                .isEmpty();
    }

    @Test
    void scanWouldCatchAForbiddenWord() {
        assertThat(FORBIDDEN
                        .matcher(withoutComment("    synchronized (this) {"))
                        .find())
                .isTrue();
        assertThat(FORBIDDEN
                        .matcher(withoutComment("new Thread(task).start();"))
                        .find())
                .isTrue();
        assertThat(FORBIDDEN
                        .matcher(withoutComment("Executors.newSingleThreadScheduledExecutor()"))
                        .find())
                .isTrue();
        assertThat(FORBIDDEN
                        .matcher(withoutComment("// no Thread here, only a comment"))
                        .find())
                .isFalse();
        assertThat(FORBIDDEN
                        .matcher(withoutComment(" * or executor exists: no Timer"))
                        .find())
                .isFalse();
        assertThat(FORBIDDEN
                        .matcher(withoutComment("long nowNanos = clock.nanoTime();"))
                        .find())
                .isFalse();
        assertThat(FORBIDDEN
                        .matcher(withoutComment("long id = Thread.currentThread().getId();"))
                        .find())
                .isFalse();
        assertThat(FORBIDDEN
                        .matcher(withoutComment("Thread.currentThread(); Thread.sleep(10);"))
                        .find())
                .isTrue();
    }

    /** The code part of a line: drops line comments and Javadoc/block-comment lines. */
    private static String withoutComment(String line) {
        String trimmed = line.trim();
        if (trimmed.startsWith("*") || trimmed.startsWith("/*")) {
            return "";
        }
        int comment = line.indexOf("//");
        return comment >= 0 ? line.substring(0, comment) : line;
    }

    private static Set<Long> liveThreadIds() {
        return Thread.getAllStackTraces().keySet().stream()
                .map(Thread::getId)
                .collect(Collectors.toCollection(HashSet::new));
    }
}
