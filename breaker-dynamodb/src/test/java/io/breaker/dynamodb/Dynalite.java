package io.breaker.dynamodb;

import io.breaker.spring.store.StoreFailureMode;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.TableStatus;

import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A real DynamoDB API server for the tests: dynalite (npm, Apache-2.0), installed with npm into
 * {@code target/dynalite} the first time and started on a free port for each test class. Without
 * node or npm the tests are skipped with a message, except on CI ({@code CI=true}), where they fail.
 */
public final class Dynalite implements BeforeAllCallback, AfterAllCallback {

    static final String VERSION = "4.0.0";
    static final String INSTALL = "node and npm are needed to run dynalite " + VERSION
            + " (a DynamoDB API server): install Node.js (Debian: 'sudo apt-get install nodejs npm')";

    private Path cli;
    private int port;
    private Process process;
    private final List<DynamoDbClient> clients = new ArrayList<>();

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        if (!onPath("node") || !onPath("npm")) {
            if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                Assertions.fail(INSTALL + " (CI=true: these tests must run on CI)");
            }
            String message = INSTALL + "; skipping " + context.getDisplayName() + ", which needs a DynamoDB API";
            System.err.println("[breaker-dynamodb] " + message);
            Assumptions.abort(message);
        }
        cli = installed();
        port = freePort();
        start();
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        clients.forEach(DynamoDbClient::close);
        if (process != null) {
            resume();
            process.destroyForcibly().waitFor();
        }
    }

    /** Starts the server (again: an empty one) and waits until it accepts connections. */
    public void start() throws IOException, InterruptedException {
        File log = Files.createTempFile("dynalite", ".log").toFile();
        process = new ProcessBuilder(
                        "node",
                        cli.toString(),
                        "--host",
                        "127.0.0.1",
                        "--port",
                        Integer.toString(port),
                        "--createTableMs",
                        "0",
                        "--deleteTableMs",
                        "0",
                        "--updateTableMs",
                        "0")
                .redirectErrorStream(true)
                .redirectOutput(log)
                .start();
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (!accepts()) {
            if (!process.isAlive() || System.nanoTime() > deadline) {
                throw new IllegalStateException(
                        "dynalite did not start on port " + port + ": " + Files.readString(log.toPath()));
            }
            Thread.sleep(20);
        }
    }

    /** SIGSTOP: the server holds its connections and answers nothing until {@link #resume()}. */
    public void pause() throws IOException, InterruptedException {
        signal("STOP");
    }

    /** SIGCONT. */
    public void resume() throws IOException, InterruptedException {
        signal("CONT");
    }

    /** Kills the server: its tables are gone (it keeps them in memory). */
    public void kill() throws InterruptedException {
        process.destroyForcibly().waitFor();
    }

    public int port() {
        return port;
    }

    /**
     * A client of this server, with long timeouts of its own: the store's bounded wait is what is
     * tested. Closed after the class.
     */
    public DynamoDbClient client() {
        return client(configuration -> {});
    }

    /**
     * A client of this server whose configuration {@code configure} changes after the 10 s timeout is
     * set (a shorter timeout, an interceptor). Closed after the class.
     */
    public DynamoDbClient client(Consumer<ClientOverrideConfiguration.Builder> configure) {
        DynamoDbClient client = DynamoDbClient.builder()
                .endpointOverride(URI.create("http://127.0.0.1:" + port))
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test")))
                .overrideConfiguration(c -> configure.accept(c.apiCallTimeout(Duration.ofSeconds(10))))
                .build();
        clients.add(client);
        return client;
    }

    /** Creates a table of the store's layout (partition key {@code breaker}, on demand) with a fresh name. */
    public String createTable() {
        String table = "breakers-" + UUID.randomUUID();
        createTable(table);
        return table;
    }

    public void createTable(String table) {
        DynamoDbClient client = client();
        client.createTable(request -> request.tableName(table)
                .attributeDefinitions(AttributeDefinition.builder()
                        .attributeName("breaker")
                        .attributeType(ScalarAttributeType.S)
                        .build())
                .keySchema(KeySchemaElement.builder()
                        .attributeName("breaker")
                        .keyType(KeyType.HASH)
                        .build())
                .billingMode(BillingMode.PAY_PER_REQUEST));
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (client.describeTable(request -> request.tableName(table)).table().tableStatus() != TableStatus.ACTIVE) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("table " + table + " did not become ACTIVE");
            }
            Thread.onSpinWait();
        }
    }

    /**
     * Settings for tests that check the protocol, not the timeout: long waits, so that a loaded machine
     * never turns a slow answer into a fallback.
     */
    static DynamoStoreSettings patient(String table) {
        return new DynamoStoreSettings(
                table,
                Duration.ofSeconds(10),
                Duration.ofSeconds(5),
                StoreFailureMode.PROTECT_LOCALLY,
                DynamoStoreSettings.DEFAULT_ITEM_EXPIRY,
                Duration.ofSeconds(10));
    }

    /** Polls until the condition holds; fails after 10 s. */
    static void await(java.util.function.BooleanSupplier condition) throws InterruptedException {
        long end = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > end) {
                throw new AssertionError("condition not met within 10s");
            }
            Thread.sleep(5);
        }
    }

    private void signal(String name) throws IOException, InterruptedException {
        if (process != null && process.isAlive()) {
            new ProcessBuilder("kill", "-" + name, Long.toString(process.pid()))
                    .inheritIO()
                    .start()
                    .waitFor(10, TimeUnit.SECONDS);
        }
    }

    private boolean accepts() {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 200);
            return true;
        } catch (IOException notYet) {
            return false;
        }
    }

    /** dynalite's cli.js, installed by npm into target/dynalite once per build (one JVM installs at a time). */
    private static synchronized Path installed() throws IOException, InterruptedException {
        Path folder = Path.of("target", "dynalite").toAbsolutePath();
        Path cli = folder.resolve("node_modules/dynalite/cli.js");
        if (Files.exists(cli)) {
            return cli;
        }
        Files.createDirectories(folder);
        Process npm = new ProcessBuilder(
                        "npm",
                        "install",
                        "--no-audit",
                        "--no-fund",
                        "--no-save",
                        "--prefix",
                        folder.toString(),
                        "dynalite@" + VERSION)
                .redirectErrorStream(true)
                .redirectOutput(folder.resolve("npm-install.log").toFile())
                .start();
        if (!npm.waitFor(5, TimeUnit.MINUTES) || npm.exitValue() != 0 || !Files.exists(cli)) {
            throw new IllegalStateException("npm could not install dynalite@" + VERSION + ": "
                    + Files.readString(folder.resolve("npm-install.log")));
        }
        return cli;
    }

    private static boolean onPath(String command) {
        String path = System.getenv("PATH");
        if (path == null) {
            return false;
        }
        for (String dir : path.split(File.pathSeparator)) {
            if (Files.isExecutable(Path.of(dir, command))) {
                return true;
            }
        }
        return false;
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
