package io.breaker.sample;

import io.breaker.spring.actuate.BreakerEventStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.NoAlertPresentException;
import org.openqa.selenium.NoSuchElementException;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.springframework.beans.factory.annotation.Autowired;

import java.io.File;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The operators' console in a real browser (headless Chromium through chromedriver), against the
 * whole bookshop over HTTP: the page lists the wholesaler breaker, shows it go OPEN when the
 * wholesaler fails (from the stream, without a reload), a user who is not an operator cannot force
 * it, and an operator's click forces it and the change shows. Skipped with a message when Chromium
 * or chromedriver is missing, except on CI ({@code CI=true}), where that fails the build.
 */
class ConsoleBrowserTest extends BookshopHttpTest {

    private static final String CHROMIUM = "/usr/bin/chromium";
    private static final String CHROMEDRIVER = "/usr/bin/chromedriver";

    private ChromeDriver browser;

    @Autowired
    private BreakerEventStream stream;

    @BeforeEach
    void startBrowser() {
        boolean installed = new File(CHROMIUM).canExecute() && new File(CHROMEDRIVER).canExecute();
        if (!installed && "true".equals(System.getenv("CI"))) {
            throw new IllegalStateException("CI=true but " + CHROMIUM + " or " + CHROMEDRIVER + " is missing: "
                    + "apt-get install -y chromium chromium-driver (.ci/run does)");
        }
        Assumptions.assumeTrue(
                installed,
                "Chromium is not installed (" + CHROMIUM + ", " + CHROMEDRIVER
                        + "): the console's browser test is skipped; apt-get install -y chromium chromium-driver");
        resetBreakerAndWholesaler();
        ChromeOptions options = new ChromeOptions()
                .setBinary(CHROMIUM)
                .addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,720");
        browser = new ChromeDriver(
                new ChromeDriverService.Builder()
                        .usingDriverExecutable(new File(CHROMEDRIVER))
                        .build(),
                options);
    }

    @AfterEach
    void stopBrowser() {
        if (browser != null) {
            browser.quit();
        }
    }

    @Test
    void showsTheWholesalerGoOpenRefusesAnonymousForcingAndLetsAnOperatorForce() throws IOException {
        browser.get("http://localhost:" + port + "/actuator/breakers/console");
        await(() -> "live".equals(browser.findElement(By.id("live")).getText()));
        assertThat(shown(this::stateOnPage)).isEqualTo("CLOSED");

        switchWholesaler("failing");
        for (int i = 0; i < 10 && !"OPEN".equals(breakerState()); i++) {
            deliveryTime("9780134685991");
        }
        assertThat(breakerState()).isEqualTo("OPEN");
        await(() -> "OPEN".equals(stateOnPage())); // from the stream: no reload

        recordWrites();
        click("Force wholesaler closed");
        await(() -> message().contains("refused (401)"));
        assertThat(breakerState()).isEqualTo("OPEN");

        // "Sign in and retry" sends the write again without X-Requested-With, so that the endpoint's
        // challenge reaches the browser, which asks for a password (here the credentials are already set).
        signInAsOperator();
        browser.findElement(By.cssSelector("#message button[aria-label='Sign in and retry: wholesaler CLOSED']"))
                .click();
        await(() -> "FORCED_CLOSED".equals(stateOnPage()));
        assertThat(browser.executeScript("return window.writesSent.join('; ')"))
                .asString()
                .isEqualTo("POST X-Requested-With; POST no X-Requested-With");
        HttpResponse<String> challenge = post("/actuator/breakers/wholesaler", "{\"state\":\"OPEN\"}", null, null);
        assertThat(challenge.headers().firstValue("WWW-Authenticate")).hasValue("Basic realm=\"bookshop\"");

        click("Force wholesaler open");
        await(() -> "FORCED_OPEN".equals(stateOnPage()));
        assertThat(breakerState()).isEqualTo("FORCED_OPEN");
        assertThat(shown(this::message)).isEqualTo("wholesaler OPEN: done");
        assertThat(shown(() -> row().getText())).contains("FORCED_OPEN", "OPERATOR");

        Path screenshot = browser.getScreenshotAs(OutputType.FILE).toPath();
        Files.copy(screenshot, Path.of("target", "console.png"), StandardCopyOption.REPLACE_EXISTING);
    }

    @Test
    void aBreakerThatInjectsFaultsWearsABadgeWithItsValues() {
        browser.get("http://localhost:" + port + "/actuator/breakers/console");
        await(() -> "live".equals(browser.findElement(By.id("live")).getText()));
        assertThat(shown(() -> row().getText())).doesNotContain("faults injected");
        HttpResponse<String> anonymous =
                post("/actuator/breakers/wholesaler/config", "{\"fault-failure-rate\": 50}", null, null);
        assertThat(anonymous.statusCode())
                .as("faults are settings: the same access rules")
                .isEqualTo(401);
        try {
            HttpResponse<String> on = post(
                    "/actuator/breakers/wholesaler/config",
                    "{\"fault-failure-rate\": 50}",
                    OPERATOR,
                    OPERATOR_PASSWORD);
            assertThat(on.statusCode()).as(on.body()).isEqualTo(200);

            await(() -> row().getText().contains("faults injected")); // the page reads the breakers every 5 s
            assertThat(shown(() -> row().findElement(By.cssSelector(".faults")).getAttribute("title")))
                    .isEqualTo("50% fail with io.breaker.InjectedFaultException");
        } finally {
            assertThat(deleteAsOperator("/actuator/breakers/wholesaler/config").statusCode())
                    .isEqualTo(200);
        }
        await(() -> !row().getText().contains("faults injected"));
    }

    /** Keeps, in window.writesSent, the method of every write the page sends and whether it asks for no challenge. */
    private void recordWrites() {
        browser.executeScript("""
                window.writesSent = [];
                const original = window.fetch;
                window.fetch = (url, init) => {
                  if (init && init.method && init.method !== 'GET') {
                    const quiet = init.headers && init.headers['X-Requested-With'];
                    window.writesSent.push(init.method + (quiet ? ' X-Requested-With' : ' no X-Requested-With'));
                  }
                  return original(url, init);
                };
                """);
    }

    @Test
    void aRefusedStreamIsAskedForAgainUntilItIsServed() {
        List<BreakerEventStream.Subscriber> held = new ArrayList<>();
        try {
            for (int i = 0; i < BreakerEventStream.MAX_SUBSCRIBERS; i++) {
                if (stream.subscribe("holder-" + i, null) instanceof BreakerEventStream.Admission.Admitted admitted) {
                    held.add(admitted.subscriber());
                }
            }
            assertThat(stream.subscribers()).as("every slot is taken").isEqualTo(BreakerEventStream.MAX_SUBSCRIBERS);
            browser.get("http://localhost:" + port + "/actuator/breakers/console");
            await(() -> live().startsWith("stream refused or failed: trying again in"));
        } finally {
            held.forEach(BreakerEventStream.Subscriber::close);
        }

        await(() -> "live".equals(live())); // the page asked again, and was served
        assertThat(shown(this::stateOnPage)).isEqualTo("CLOSED");
    }

    private String live() {
        return browser.findElement(By.id("live")).getText();
    }

    private WebElement row() {
        return browser.findElement(By.cssSelector("tr[data-name='wholesaler']"));
    }

    private String stateOnPage() {
        return row().findElement(By.cssSelector(".state")).getText();
    }

    private String message() {
        return browser.findElement(By.id("message")).getText();
    }

    /**
     * Clicks the button with this accessible name and confirms the browser's dialog. The table is redrawn
     * on every event and every 5 s, so the button found may be gone when it is clicked: then it is looked
     * up again.
     */
    private void click(String label) {
        for (int attempt = 1; ; attempt++) {
            try {
                row().findElement(By.cssSelector("button[aria-label='" + label + "']"))
                        .click();
                break;
            } catch (StaleElementReferenceException redrawn) {
                if (attempt == 10) {
                    throw redrawn;
                }
            }
        }
        await(() -> {
            try {
                browser.switchTo().alert().accept();
                return true;
            } catch (NoAlertPresentException notYet) {
                return false;
            }
        });
    }

    /** Waits for what the page shows (it changes from the stream, on its own time); a page element may be redrawn meanwhile. */
    private void await(BooleanSupplier condition) {
        long end = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (true) {
            try {
                if (condition.getAsBoolean()) {
                    return;
                }
            } catch (NoSuchElementException | StaleElementReferenceException redrawn) {
                // the table is redrawn on every event: look again
            }
            if (System.nanoTime() - end > 0) {
                throw new AssertionError("the page did not show it within 20 s; it shows: "
                        + browser.findElement(By.tagName("body")).getText());
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }

    /**
     * Reads what the page shows now. The table is redrawn on every event, so an element found a
     * moment ago may be gone when its text is read: then it is looked up again (a few times at most).
     */
    private String shown(Supplier<String> reading) {
        for (int attempt = 1; ; attempt++) {
            try {
                return reading.get();
            } catch (StaleElementReferenceException redrawn) {
                if (attempt == 10) {
                    throw redrawn;
                }
            }
        }
    }

    /** From now on the browser sends the operator's credentials, as after a sign-in with HTTP basic. */
    private void signInAsOperator() {
        String credentials = Base64.getEncoder()
                .encodeToString((OPERATOR + ":" + OPERATOR_PASSWORD).getBytes(StandardCharsets.UTF_8));
        browser.executeCdpCommand("Network.enable", Map.of());
        browser.executeCdpCommand(
                "Network.setExtraHTTPHeaders", Map.of("headers", Map.of("Authorization", "Basic " + credentials)));
    }
}
