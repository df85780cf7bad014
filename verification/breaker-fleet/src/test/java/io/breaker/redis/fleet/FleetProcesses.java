package io.breaker.redis.fleet;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.IntFunction;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * N instances of {@link FleetInstance}, each in its own JVM, started with the test's own class path
 * and destroyed together; one more can be started later. Each instance logs to
 * {@code <directory>/instance-<i>.log}.
 */
final class FleetProcesses implements AutoCloseable {

    private static final Duration START_LIMIT = Duration.ofSeconds(180);
    /**
     * More per instance for a large fleet: the instances start at once, so on a small machine their
     * start-ups share its cores (40 instances on 2 cores took 4 to 5 minutes next to other builds).
     */
    private static final Duration START_LIMIT_PER_INSTANCE = Duration.ofSeconds(15);
    /** The logger of the starter's transition log lines. */
    private static final String TRANSITIONS = "io.breaker.transitions";

    private static final Pattern STATE = Pattern.compile("\"state\"\\s*:\\s*\"(\\w+)\"");
    /** The first measurement's value in the actuator's metrics answer. */
    private static final Pattern METER_VALUE = Pattern.compile("\"value\"\\s*:\\s*([0-9.eE+-]+)");
    /** The resident set size line of {@code /proc/<pid>/status}, in KiB. */
    private static final Pattern VM_RSS = Pattern.compile("(?m)^VmRSS:\\s+(\\d+)\\s+kB");

    private final FleetSettings settings;
    private final StoreAddress store;
    private final IntFunction<URI> dependency;
    private final Path directory;
    private final List<String> extraArgs;
    private final List<Process> processes = new ArrayList<>();
    private final List<Path> logs = new ArrayList<>();
    private final List<URI> bases = new ArrayList<>();
    private final Thread killOnExit = new Thread(this::destroyAll, "fleet-processes-kill");
    private final HttpClient http = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2))
            .build();

    private FleetProcesses(
            FleetSettings settings,
            StoreAddress store,
            IntFunction<URI> dependency,
            Path directory,
            List<String> extraArgs) {
        this.settings = settings;
        this.store = store;
        this.dependency = dependency;
        this.directory = directory;
        this.extraArgs = List.copyOf(extraArgs);
        // The test JVM ending abruptly must not leave instances behind (each also exits when its stdin closes).
        Runtime.getRuntime().addShutdownHook(killOnExit);
    }

    /**
     * Starts every instance at once (their start-ups overlap, as in a deployment) and waits until each answers;
     * they share a redis-server on this machine.
     */
    static FleetProcesses start(FleetSettings settings, int redisPort, IntFunction<URI> dependency, Path directory)
            throws IOException, InterruptedException {
        return start(settings, StoreAddress.redis(redisPort), dependency, directory, List.of());
    }

    /** The same, the instances sharing the store at {@code store}. */
    static FleetProcesses start(FleetSettings settings, StoreAddress store, IntFunction<URI> dependency, Path directory)
            throws IOException, InterruptedException {
        return start(settings, store, dependency, directory, List.of());
    }

    /**
     * The same, each instance also given {@code extraArgs}, Spring Boot command-line arguments
     * ({@code --name=value}) for properties the harness does not set itself (a property given twice
     * would be read as both values joined by a comma). Instances added later by {@link #startOneMore()}
     * get them too.
     */
    static FleetProcesses start(
            FleetSettings settings, int redisPort, IntFunction<URI> dependency, Path directory, List<String> extraArgs)
            throws IOException, InterruptedException {
        return start(settings, StoreAddress.redis(redisPort), dependency, directory, extraArgs);
    }

    /** The same, the instances sharing the store at {@code store}, each also given {@code extraArgs}. */
    static FleetProcesses start(
            FleetSettings settings,
            StoreAddress store,
            IntFunction<URI> dependency,
            Path directory,
            List<String> extraArgs)
            throws IOException, InterruptedException {
        Files.createDirectories(directory);
        FleetProcesses fleet = new FleetProcesses(settings, store, dependency, directory, extraArgs);
        try {
            for (int i = 0; i < settings.instances(); i++) {
                fleet.launch(i);
            }
            long deadline = System.nanoTime() + startLimit(settings.instances()).toNanos();
            for (int i = 0; i < settings.instances(); i++) {
                fleet.awaitStarted(i, deadline);
            }
            return fleet;
        } catch (IOException | InterruptedException | RuntimeException failed) {
            fleet.close();
            throw failed;
        }
    }

    /**
     * Starts one more instance, configured as the others, and waits until it answers; returns its index.
     * If it does not start, it is destroyed with the others by {@link #close()}.
     */
    int startOneMore() throws IOException, InterruptedException {
        int instance = processes.size();
        launch(instance);
        awaitStarted(
                instance, System.nanoTime() + startLimit(settings.instances()).toNanos());
        return instance;
    }

    private void launch(int instance) throws IOException {
        Files.deleteIfExists(portFile(instance));
        Path log = directory.resolve("instance-" + instance + ".log");
        logs.add(log);
        processes.add(new ProcessBuilder(command(instance))
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start()); // stdin stays a pipe: it closes when this JVM dies, and the instance exits
    }

    private void awaitStarted(int instance, long deadline) throws IOException, InterruptedException {
        int port = awaitPort(instance, portFile(instance), deadline);
        bases.add(URI.create("http://127.0.0.1:" + port));
        awaitAnswer(instance, deadline);
    }

    /** How long a fleet of {@code instances} gets to start: 180 s, or 15 s per instance for more than 12. */
    static Duration startLimit(int instances) {
        Duration scaled = START_LIMIT_PER_INSTANCE.multipliedBy(instances);
        return scaled.compareTo(START_LIMIT) > 0 ? scaled : START_LIMIT;
    }

    private Path portFile(int instance) {
        return directory.resolve("instance-" + instance + ".port");
    }

    private List<String> command(int instance) {
        String prefix = "--breakers.instances." + FleetInstance.BREAKER + ".";
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(settings.jvmArgs());
        command.addAll(store.jvmArgs());
        command.addAll(List.of(
                "-cp",
                classPath(),
                FleetInstance.class.getName(),
                "--server.port=0",
                "--spring.main.banner-mode=off",
                "--management.endpoints.web.exposure.include=breakers,metrics",
                "--breakers.store.type=" + settings.store(),
                "--breakers.store.timeout=" + settings.storeTimeout().toMillis() + "ms",
                prefix + "sliding-window-type=COUNT_BASED",
                prefix + "sliding-window-size=" + FleetSettings.WINDOW_SIZE,
                prefix + "minimum-number-of-calls=" + FleetSettings.MINIMUM_CALLS,
                prefix + "failure-rate-threshold=" + FleetSettings.FAILURE_RATE_THRESHOLD,
                prefix + "wait-duration-in-open-state=" + settings.openWait().toMillis() + "ms",
                "--fleet.dependency-url=" + dependency.apply(instance),
                "--fleet.port-file=" + portFile(instance)));
        command.addAll(store.arguments());
        command.addAll(extraArgs);
        return command;
    }

    /**
     * Surefire runs tests from a manifest-only jar, so {@code java.class.path} is that jar alone there;
     * it passes the real test class path in {@code surefire.test.class.path}. An IDE sets {@code java.class.path}.
     */
    static String classPath() {
        String surefire = System.getProperty("surefire.test.class.path");
        return surefire != null && !surefire.isBlank() ? surefire : System.getProperty("java.class.path");
    }

    private int awaitPort(int instance, Path portFile, long deadline) throws IOException, InterruptedException {
        while (!Files.exists(portFile)) {
            if (!processes.get(instance).isAlive()) {
                throw new IllegalStateException("instance " + instance + " exited with "
                        + processes.get(instance).exitValue() + ":\n" + tail(instance));
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("instance " + instance + " did not start within "
                        + startLimit(settings.instances()) + ":\n" + tail(instance));
            }
            Thread.sleep(50);
        }
        return Integer.parseInt(Files.readString(portFile).trim());
    }

    private void awaitAnswer(int instance, long deadline) throws InterruptedException {
        while (true) {
            try {
                if (get(instance, "/ping").statusCode() == 200) {
                    return;
                }
            } catch (IOException notYet) {
                // the port is written as the server starts; it may not accept for a moment
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("instance " + instance + " does not answer:\n" + tail(instance));
            }
            Thread.sleep(50);
        }
    }

    int size() {
        return bases.size();
    }

    /** Where instance {@code i} answers. */
    URI uri(int instance, String path) {
        return bases.get(instance).resolve(path);
    }

    /**
     * A call through instance {@code i}'s breaker ({@code GET /call}), which is also what refreshes its
     * cached shared state; returns the HTTP status.
     */
    int call(int instance) {
        return send(instance, "GET", "/call", null).statusCode();
    }

    /** The value instance {@code i} applies for {@code property}, as JSON, from its settings endpoint; null if not shown. */
    String settingValue(int instance, String property) {
        return settingValue(
                send(instance, "GET", FleetInstance.CONFIG_PATH, null).body(), property);
    }

    /** The value of {@code property} in a settings endpoint's answer, as JSON (a string keeps its quotes); null if not shown. */
    static String settingValue(String config, String property) {
        Matcher value = Pattern.compile("\"" + Pattern.quote(property) + "\":\\{\"value\":(\"[^\"]*\"|[-0-9.Ee]+)")
                .matcher(config);
        return value.find() ? value.group(1) : null;
    }

    /**
     * Makes a change of the settings through {@code instance} until the fleet took it, as an operator would: sent again when
     * refused because the instance's view was stale (409, which shows the fleet's settings), or when
     * the table answered after the store timeout ({@code fleetChanged: "unknown"}, only with one more
     * operation a caller stopped waiting for). An unknown change may never reach the store: after the
     * store lost the settings, another instance can put them back first, and the late change is then
     * stale; the instance that made it gives way to the fleet's settings. Whether the fleet applied the
     * change is what the awaits after it check.
     */
    void changeUntilTheFleetTookIt(int instance, String change) throws IOException, InterruptedException {
        boolean unknownBefore = false;
        for (int attempt = 0; attempt < 6; attempt++) {
            long lateBefore = storeTimeouts();
            HttpResponse<String> answer = send(instance, "POST", FleetInstance.CONFIG_PATH, change);
            if (answer.statusCode() == 409) {
                continue;
            }
            assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
            if (answer.body().contains("\"fleetChanged\":true")) {
                return;
            }
            if (unknownBefore && answer.body().contains("\"fleetChanged\":false")) {
                return; // the late answer of an earlier attempt: the fleet took that one
            }
            assertThat(answer.body()).contains("\"fleetChanged\":\"unknown\"");
            assertThat(storeTimeouts())
                    .as("an unknown answer is a late one: %s", answer.body())
                    .isGreaterThan(lateBefore);
            unknownBefore = true;
        }
        throw new AssertionError("the fleet did not take " + change + " in 6 attempts");
    }

    /**
     * Calls instance {@code i} until it shows {@code expected} (as JSON) as the value of {@code property};
     * fails after {@code within}, saying what it applies.
     */
    void awaitSettingValue(int instance, String property, String expected, Duration within) {
        String[] last = {null};
        await(
                within,
                () -> "instance " + instance + " to apply " + property + "=" + expected + " (it applies " + last[0]
                        + ")",
                () -> {
                    call(instance);
                    last[0] = settingValue(instance, property);
                    return expected.equals(last[0]);
                });
    }

    /**
     * Calls each instance in turn until its actuator shows the store reachable; fails after {@code within}
     * for one instance, naming it "to reach {@code store}".
     */
    void awaitStoreReachable(String store, Duration within) {
        for (int i = 0; i < size(); i++) {
            int instance = i;
            await(within, () -> "instance " + instance + " to reach " + store, () -> {
                call(instance);
                return storeReachable(instance);
            });
        }
    }

    /** The breaker's state as instance {@code i}'s actuator shows it, or what went wrong asking. */
    String state(int instance) {
        try {
            HttpResponse<String> response = get(instance, FleetInstance.BREAKER_PATH);
            Matcher state = STATE.matcher(response.body());
            return state.find() ? state.group(1) : "HTTP " + response.statusCode();
        } catch (IOException e) {
            return "unreachable (" + e.getClass().getSimpleName() + ")";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
    }

    /** Whether instance {@code i}'s actuator shows the breaker's store reachable (false when it cannot tell). */
    boolean storeReachable(int instance) {
        try {
            return get(instance, FleetInstance.BREAKER_PATH).body().contains("\"reachable\":true");
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * The fleet's {@code breaker.store.timeouts} so far, all instances together: operations a caller stopped
     * waiting for (0 for an instance without the meter, as with {@code fleet.store=memory}).
     */
    long storeTimeouts() throws IOException, InterruptedException {
        long sum = 0;
        for (int i = 0; i < size(); i++) {
            HttpResponse<String> response = get(i, "/actuator/metrics/breaker.store.timeouts");
            if (response.statusCode() == 404) {
                continue;
            }
            Matcher value = METER_VALUE.matcher(response.body());
            if (response.statusCode() != 200 || !value.find()) {
                throw new IllegalStateException(
                        "instance " + i + " answered " + response.statusCode() + ": " + response.body());
            }
            sum += (long) Double.parseDouble(value.group(1));
        }
        return sum;
    }

    /**
     * Instance {@code i}'s resident set size in KiB, from {@code /proc/<pid>/status}: what the process
     * holds in memory, heap, metaspace, code, thread stacks and the JVM's own included; -1 where there is
     * no {@code /proc} (not Linux) or the process is gone.
     */
    long residentKib(int instance) {
        try {
            Matcher rss = VM_RSS.matcher(Files.readString(
                    Path.of("/proc", Long.toString(processes.get(instance).pid()), "status")));
            return rss.find() ? Long.parseLong(rss.group(1)) : -1;
        } catch (IOException | UnsupportedOperationException notThere) {
            return -1;
        }
    }

    /** Instance {@code i}'s heap in use, in bytes ({@code jvm.memory.used} of the heap's pools), or -1 without an answer. */
    long heapUsedBytes(int instance) {
        try {
            HttpResponse<String> response = get(instance, "/actuator/metrics/jvm.memory.used?tag=area:heap");
            Matcher value = METER_VALUE.matcher(response.body());
            return response.statusCode() == 200 && value.find() ? (long) Double.parseDouble(value.group(1)) : -1;
        } catch (IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    /**
     * WARN and ERROR lines the instances have logged so far, all together, except the breaker's state
     * transitions (logged at WARN too, and expected in every round): what is left is mostly the store's.
     */
    long warnings() {
        long count = 0;
        for (Path log : logs) {
            try (Stream<String> lines = Files.lines(log)) {
                count += lines.filter(line -> line.contains(" WARN ") || line.contains(" ERROR "))
                        .filter(line -> !line.contains(TRANSITIONS))
                        .count();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return count;
    }

    /** A trip's log line: its cause, and the rate and threshold it reports. */
    private static final Pattern TRIP = Pattern.compile(
            "to=OPEN cause=(FAILURE_RATE|SLOW_CALL_RATE) failureRate=(\\S+) slowCallRate=(\\S+) threshold=(\\S+)");

    /**
     * The instances' trip lines whose numbers do not explain the trip: a rate below the threshold of
     * the cause it names. A trip an instance learned from the fleet must report the fleet's window,
     * not the part of the calls its own window saw.
     */
    List<String> tripsTheirNumbersDoNotExplain() {
        List<String> untrue = new ArrayList<>();
        for (Path log : logs) {
            try (Stream<String> lines = Files.lines(log)) {
                lines.filter(line -> line.contains(TRANSITIONS)).forEach(line -> {
                    Matcher trip = TRIP.matcher(line);
                    if (trip.find()) {
                        float rate = Float.parseFloat(trip.group(trip.group(1).equals("FAILURE_RATE") ? 2 : 3));
                        if (rate < Float.parseFloat(trip.group(4))) {
                            untrue.add(log.getFileName() + ": " + line);
                        }
                    }
                });
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return untrue;
    }

    /**
     * Sends {@code method} to instance {@code i}'s {@code path}, with {@code json} as a JSON body unless it
     * is null, as an operator's client would; the instance not answering is an {@link UncheckedIOException}.
     */
    HttpResponse<String> send(int instance, String method, String path, String json) {
        try {
            return exchange(instance, method, path, json);
        } catch (IOException e) {
            throw new UncheckedIOException("instance " + instance + ": " + method + " " + path, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted: instance " + instance + ": " + method + " " + path, e);
        }
    }

    /** Polls {@code condition} every 20 ms until it holds; fails after {@code within}, saying what was awaited. */
    static void await(Duration within, Supplier<String> what, BooleanSupplier condition) {
        await(within, Duration.ofMillis(20), what, condition);
    }

    /** The same, pausing {@code pause} between polls. */
    static void await(Duration within, Duration pause, Supplier<String> what, BooleanSupplier condition) {
        long end = System.nanoTime() + within.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > end) {
                throw new AssertionError("waited " + within.toMillis() + " ms for " + what.get());
            }
            try {
                Thread.sleep(pause.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted", e);
            }
        }
    }

    private HttpResponse<String> get(int instance, String path) throws IOException, InterruptedException {
        return exchange(instance, "GET", path, null);
    }

    private HttpResponse<String> exchange(int instance, String method, String path, String json)
            throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri(instance, path))
                .timeout(Duration.ofSeconds(5))
                .method(
                        method,
                        json == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(json));
        if (json != null) {
            request.header("Content-Type", "application/json");
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private String tail(int instance) {
        try {
            List<String> lines = Files.readAllLines(logs.get(instance));
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    private void destroyAll() {
        processes.forEach(Process::destroy);
        for (Process process : processes) {
            try {
                if (!process.waitFor(10, TimeUnit.SECONDS)) {
                    process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                process.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public void close() {
        destroyAll();
        try {
            Runtime.getRuntime().removeShutdownHook(killOnExit);
        } catch (IllegalStateException alreadyShuttingDown) {
            // the hook is running or has run: nothing left to undo
        }
    }
}
