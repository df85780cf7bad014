package io.breaker.sample;

import com.fasterxml.jackson.databind.JsonNode;
import io.breaker.BreakerRegistry;
import io.breaker.CircuitBreaker;
import io.breaker.spring.actuate.BreakerActivity;
import io.breaker.spring.actuate.BreakerEventStream;
import io.breaker.test.BreakerClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.Keys;
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
 * it, and an operator's click forces it and the change shows; the wholesaler's panel charts what
 * happened with the endpoint's own numbers, on a phone, in a dark theme and by keyboard. The
 * breakers run on the test kit's virtual clock, which the tests move. Skipped with a message when Chromium
 * or chromedriver is missing, except on CI ({@code CI=true}), where that fails the build.
 */
class ConsoleBrowserTest extends BookshopHttpTest {

    private static final String CHROMIUM = "/usr/bin/chromium";
    private static final String CHROMEDRIVER = "/usr/bin/chromedriver";

    private ChromeDriver browser;

    private static final String BOOK = "9780134685991";

    @Autowired
    private BreakerEventStream stream;

    @Autowired
    private BreakerClock clock;

    @Autowired
    private BreakerRegistry registry;

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

    /**
     * The panel of the wholesaler charts what happened, with the endpoint's own numbers: the test moves
     * the virtual clock one sample spacing, reads the endpoint (which takes a sample), makes calls, and
     * so on; each bar the page drew must hold exactly the calls between the two samples it spans, as the
     * endpoint's totals say and as the test made them. Saves the panel in CLOSED, OPEN and HALF_OPEN as
     * {@code target/console-*.png} (copied to {@code docs/images} for the README).
     */
    @Test
    void chartsWhatHappenedWithTheEndpointsNumbers() throws IOException {
        browser.manage().window().setSize(new Dimension(800, 1400)); // one panel, whole, for the pictures
        browser.get("http://localhost:" + port + "/actuator/breakers/console");
        await(() -> "live".equals(live()));

        clock.advance(BreakerActivity.SPACING);
        String first = lastSampleAt(breaker("wholesaler"));
        for (int i = 0; i < 3; i++) {
            assertThat(deliveryTime(BOOK).statusCode()).isEqualTo(200);
        }
        clock.advance(BreakerActivity.SPACING);
        String healthy = lastSampleAt(breaker("wholesaler"));

        // The trip comes late in the next interval, so that the OPEN picture has a probe to count down to.
        clock.advance(BreakerActivity.SPACING.minusMillis(500));
        switchWholesaler("failing");
        int failed = 0;
        while (!"OPEN".equals(breakerState()) && failed < 10) {
            deliveryTime(BOOK);
            failed++;
        }
        assertThat(breakerState()).isEqualTo("OPEN");
        deliveryTime(BOOK);
        deliveryTime(BOOK);
        clock.advance(Duration.ofMillis(500));
        JsonNode open = breaker("wholesaler");
        String tripped = lastSampleAt(open);

        await(() ->
                tripped.equals(panel().findElement(By.cssSelector("svg.chart")).getAttribute("data-to")));
        List<Map<String, String>> bars = plotted();
        assertThat(bars).as("every bar the page drew").isNotEmpty();
        for (Map<String, String> bar : bars) {
            JsonNode from = sample(open, bar.get("from"));
            JsonNode to = sample(open, bar.get("to"));
            for (String outcome : List.of("succeeded", "failed", "slow", "ignored", "rejected")) {
                assertThat(Long.parseLong(bar.get(outcome)))
                        .as("%s from %s to %s", outcome, bar.get("from"), bar.get("to"))
                        .isEqualTo(to.get(outcome).asLong() - from.get(outcome).asLong());
            }
        }
        assertThat(bar(bars, first, healthy))
                .containsEntry("succeeded", "3")
                .containsEntry("failed", "0")
                .containsEntry("rejected", "0")
                .containsEntry("perSecond", "1.500");
        assertThat(bar(bars, healthy, tripped))
                .containsEntry("succeeded", "0")
                .containsEntry("failed", String.valueOf(failed))
                .containsEntry("rejected", "2");
        assertThat(panel().findElement(By.cssSelector("g.rates g[data-at='" + tripped + "']"))
                        .getAttribute("data-failure-rate"))
                .isEqualTo(number(sample(open, tripped).get("failureRate")));
        assertThat(panel().findElement(By.cssSelector("svg.chart")).getAttribute("data-threshold"))
                .isEqualTo(number(open.get("config").get("failureRateThreshold")));
        assertThat(shown(() -> panel().findElement(By.cssSelector(".probe")).getText()))
                .matches("Next probe in \\d+ s|Probe due: the next call probes");
        savePanel("console-open.png");

        // The wait passes; the next call is the probe, held here while the page shows HALF_OPEN.
        clock.advance(
                Duration.parse(open.get("config").get("waitDurationInOpenState").asText()));
        CircuitBreaker breaker = registry.find("wholesaler").orElseThrow();
        long probe = breaker.tryAcquirePermit();
        assertThat(probe).isNotEqualTo(CircuitBreaker.NO_PERMIT);
        await(() -> "HALF_OPEN".equals(panel().getAttribute("data-state")));
        assertThat(shown(() -> panel().findElement(By.cssSelector(".probe")).getText()))
                .startsWith("Probing");
        savePanel("console-half-open.png");

        breaker.onSuccess(probe, 0);
        switchWholesaler("healthy");
        for (int i = 0; i < 4; i++) {
            assertThat(deliveryTime(BOOK).statusCode()).isEqualTo(200);
        }
        clock.advance(BreakerActivity.SPACING);
        String closed = lastSampleAt(breaker("wholesaler"));
        await(() ->
                closed.equals(panel().findElement(By.cssSelector("svg.chart")).getAttribute("data-to")));
        assertThat(panel().getAttribute("data-state")).isEqualTo("CLOSED");
        assertThat(panel().findElements(By.cssSelector("svg.chart rect[data-state='OPEN']")))
                .as("the OPEN period shaded")
                .isNotEmpty();
        List<Map<String, String>> afterProbe = plotted();
        assertThat(afterProbe.get(afterProbe.size() - 1))
                .as("from HALF_OPEN on: the probe and four calls, all successes")
                .containsEntry("to", closed)
                .containsEntry("succeeded", "5")
                .containsEntry("failed", "0")
                .containsEntry("rejected", "0");
        savePanel("console-closed.png");
    }

    @Test
    void readsOnAPhoneFollowsADarkSystemThemeAndWorksByKeyboard() throws IOException {
        browser.manage().window().setSize(new Dimension(390, 844));
        browser.executeCdpCommand(
                "Emulation.setEmulatedMedia",
                Map.of("features", List.of(Map.of("name", "prefers-color-scheme", "value", "dark"))));
        browser.get("http://localhost:" + port + "/actuator/breakers/console");
        await(() -> "live".equals(live()));
        assertThat(deliveryTime(BOOK).statusCode()).isEqualTo(200);
        clock.advance(BreakerActivity.SPACING); // the next sample, whoever reads first, holds that call
        String sampled = lastSampleAt(breaker("wholesaler"));
        await(() ->
                sampled.equals(panel().findElement(By.cssSelector("svg.chart")).getAttribute("data-to")));

        assertThat(browser.executeScript("return document.documentElement.scrollWidth <= window.innerWidth"))
                .as("nothing wider than the phone's screen")
                .isEqualTo(true);
        assertThat(browser.executeScript("""
                        const chart = document.querySelector("section.panel[data-name='wholesaler'] svg.chart");
                        return chart.getBoundingClientRect().right <= window.innerWidth;
                        """))
                .as("the chart scales to the screen")
                .isEqualTo(true);
        assertThat(browser.executeScript("return getComputedStyle(document.body).backgroundColor"))
                .as("the dark theme's background")
                .isEqualTo("rgb(18, 20, 23)");

        // By keyboard: the chart takes the focus and says its totals; Enter opens the numbers plotted.
        WebElement chart = panel().findElement(By.cssSelector("figure.history"));
        browser.executeScript("arguments[0].focus()", chart);
        assertThat(browser.switchTo().activeElement().getAttribute("aria-label"))
                .startsWith("History of wholesaler")
                .contains("1 succeeded");
        browser.switchTo().activeElement().sendKeys(Keys.TAB);
        WebElement summary = browser.switchTo().activeElement();
        assertThat(summary.getText()).isEqualTo("Numbers plotted");
        summary.sendKeys(Keys.ENTER);
        await(() -> panel().findElement(By.cssSelector("details.numbers")).getAttribute("open") != null);
        savePanel("console-phone-dark.png");
    }

    /**
     * A breaker shared through Redis: its panel says this instance's state, the fleet's and whether
     * the instance acts alone. The sample runs without Redis here, so the page draws the endpoint's
     * own description of the wholesaler with the store's fields set as a shared breaker's are (the
     * endpoint's side of them is tested against a real Redis in breaker-redis).
     */
    @Test
    void showsASharedBreakersFleetAndWhetherThisInstanceActsAlone() {
        browser.get("http://localhost:" + port + "/actuator/breakers/console");
        await(() -> "live".equals(live()));
        Object fleet = browser.executeAsyncScript("""
                const done = arguments[arguments.length - 1];
                fetch(location.pathname.replace(/\\/console$/, '') + '/wholesaler').then(r => r.json()).then(b => {
                  const shared = (store, fleet) => Object.assign({}, b, { shared: true, store: store, fleet: fleet });
                  const box = document.createElement('div');
                  document.body.appendChild(box);
                  const lines = [];
                  window.BreakerPanels.render(box, [shared(
                      { type: 'redis', reachable: true, actingAlone: false, failureMode: 'protect-locally' },
                      { state: b.state, age: 'PT0.4S' })]);
                  lines.push(box.querySelector('.fleet').textContent);
                  window.BreakerPanels.render(box, [shared(
                      { type: 'redis', reachable: false, actingAlone: true, failureMode: 'protect-locally' },
                      { state: 'OPEN', age: 'PT1M5S' })]);
                  lines.push(box.querySelector('.fleet').textContent + ' | ' + box.querySelector('.fleet').className);
                  box.remove();
                  done(lines);
                });
                """);
        assertThat(fleet)
                .asList()
                .containsExactly(
                        "This instance: CLOSED · fleet (redis): CLOSED, heard 0 s ago · acting with the fleet",
                        "This instance: CLOSED · fleet (redis): OPEN, heard 65 s ago"
                                + " · acting alone: the store is unreachable (protect-locally) | fleet alone");
    }

    private WebElement panel() {
        return browser.findElement(By.cssSelector("section.panel[data-name='wholesaler']"));
    }

    /** The bars of the wholesaler's chart, as the page wrote them in data attributes. */
    @SuppressWarnings("unchecked")
    private List<Map<String, String>> plotted() {
        return (List<Map<String, String>>) browser.executeScript("""
                return Array.from(document.querySelectorAll(
                    "section.panel[data-name='wholesaler'] svg.chart g.interval")).map(g => Object.assign({}, g.dataset));
                """);
    }

    private static Map<String, String> bar(List<Map<String, String>> bars, String from, String to) {
        return bars.stream()
                .filter(bar -> from.equals(bar.get("from")) && to.equals(bar.get("to")))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no bar from " + from + " to " + to + " in " + bars));
    }

    private static String lastSampleAt(JsonNode breaker) {
        JsonNode samples = breaker.get("activity").get("samples");
        return samples.get(samples.size() - 1).get("at").asText();
    }

    private static JsonNode sample(JsonNode breaker, String at) {
        for (JsonNode sample : breaker.get("activity").get("samples")) {
            if (sample.get("at").asText().equals(at)) {
                return sample;
            }
        }
        throw new AssertionError("the endpoint has no sample at " + at + ": " + breaker.get("activity"));
    }

    /** A JSON number as JavaScript's String() writes it (50.0 becomes 50). */
    private static String number(JsonNode value) {
        double d = value.asDouble();
        return d == Math.rint(d) ? String.valueOf((long) d) : String.valueOf(d);
    }

    /** Saves the wholesaler's panel alone (the page is redrawn every few seconds: looked up again if need be). */
    private void savePanel(String name) throws IOException {
        File image = shownElement(() -> {
            WebElement panel = panel();
            browser.executeScript("arguments[0].scrollIntoView({block: 'start'})", panel);
            return panel.getScreenshotAs(OutputType.FILE);
        });
        Files.copy(image.toPath(), Path.of("target", name), StandardCopyOption.REPLACE_EXISTING);
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
        return shownElement(reading);
    }

    private <T> T shownElement(Supplier<T> reading) {
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
