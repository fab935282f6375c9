package io.isowatch.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.isowatch.checker.level.Level;
import io.isowatch.schemas.Violation;
import io.isowatch.schemas.WitnessEdge;
import io.isowatch.stream.config.MonitorConfig;
import io.isowatch.stream.kafka.KafkaBroker;
import io.isowatch.stream.kafka.TopicRecords;
import io.isowatch.stream.replay.HistoryRecords;
import io.isowatch.stream.replay.Replayer;
import io.isowatch.stream.replay.WriteSkewWorkload;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Properties;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * The violations page in a real browser: {@code isowatch monitor} runs on the in-process broker
 * ({@link KafkaBroker}), a snapshot-isolation history with one injected write skew ({@link
 * WriteSkewWorkload}, Adya's G2-item) is replayed into it, and headless Chromium (Debian's {@code
 * chromium} and {@code chromium-driver}, driven by Selenium with the system driver, so that Selenium
 * Manager downloads nothing) opens {@code /violations}, follows the link to the witness and finds
 * there the published witness's transactions and edge labels. Screenshots of both pages are saved
 * to {@code target/screenshots/} ({@code violations.png}, {@code witness.png}).
 *
 * <p>Without {@value #CHROMIUM} or {@value #CHROMEDRIVER} the test is skipped with a message, unless
 * {@code CI=true}, where it fails.
 */
@ExtendWith(KafkaBroker.class)
class ViolationsPageBrowserTest {
  static final String CHROMIUM = "/usr/bin/chromium";
  static final String CHROMEDRIVER = "/usr/bin/chromedriver";
  private static final Path SCREENSHOTS = Path.of("target", "screenshots");

  @TempDir Path tmp;

  @Test
  void theWitnessOfAPublishedWriteSkewIsDrawnInTheBrowser() throws Exception {
    boolean present = Files.isExecutable(Path.of(CHROMIUM)) && Files.isExecutable(Path.of(CHROMEDRIVER));
    if (!present) {
      String message = "headless Chromium needs " + CHROMIUM + " and " + CHROMEDRIVER
          + " (Debian: apt-get install chromium chromium-driver)";
      assertThat("true".equals(System.getenv("CI"))).as(message + "; CI=true requires them").isFalse();
      Assumptions.abort(message);
    }
    MonitorConfig config = MonitorConfig.defaults()
        .withTopics("browser.events", "browser.violations", "browser.dlq").withExpectedLevel(Level.SERIALIZABLE);
    Properties overlay = new Properties();
    overlay.setProperty(StreamsConfig.STATE_DIR_CONFIG, tmp.resolve("state").toString());
    MonitorRequest request = new MonitorRequest(config, KafkaBroker.bootstrapServers(), "browser-app", overlay, true,
        Optional.of(1), Optional.of((short) 1), "127.0.0.1", 0, Optional.empty(), false);
    try (RunningMonitor monitor = RunningMonitor.start(request)) {
      URI page = monitor.violationsPage();

      WriteSkewWorkload.Generated run = WriteSkewWorkload.generate(30, 3, 4, 25, 5);
      assertThat(run.skews()).hasSize(1);
      long[] skew = run.skews().get(0);
      HistoryRecords records = new HistoryRecords(run.history(), "browser-db", Instant.now(), Duration.ofMillis(1));
      List<HistoryRecords.Keyed> events = new ArrayList<>();
      records.forEachEvent(events::add);
      Properties clients = new Properties();
      clients.setProperty(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, KafkaBroker.bootstrapServers());
      try (Replayer replayer = new Replayer(clients, config.eventsTopic())) {
        assertThat(replayer.publish(events)).isEqualTo(events.size());
      }
      await().atMost(Duration.ofSeconds(90)).until(() -> !published(config).isEmpty());
      List<Violation> published = published(config);
      assertThat(published).hasSize(1);
      Violation v = published.get(0);
      assertThat(v.getAnomaly()).isEqualTo("G2-item");
      List<String> cycle = v.getWitness().getEdges().stream().map(WitnessEdge::getFromTxnId).sorted().toList();
      assertThat(cycle).containsExactly("browser-db/T" + skew[0], "browser-db/T" + skew[1]);
      List<String> labels = v.getWitness().getEdges().stream()
          .map(e -> e.getType().name().toLowerCase(Locale.ROOT) + " " + e.getKey() + "=" + e.getValue()).toList();
      HttpClient http = HttpClient.newHttpClient();
      await().atMost(Duration.ofSeconds(30)).until(() -> http.send(HttpRequest.newBuilder(page).build(),
          HttpResponse.BodyHandlers.ofString()).body().contains(v.getViolationId()));

      ChromeDriver driver = chrome();
      try {
        driver.get(page.toString());
        assertThat(driver.getTitle()).isEqualTo("isowatch: recent violations");
        List<String> rows = driver.findElements(By.cssSelector("tbody tr")).stream().map(WebElement::getText).toList();
        assertThat(rows).hasSize(1);
        assertThat(rows.get(0)).contains("browser-db G2-item serializable", v.getViolationId());
        screenshot(driver, "violations.png");
        driver.findElement(By.linkText(v.getViolationId())).click();

        assertThat(driver.getTitle()).isEqualTo("isowatch: violation " + v.getViolationId());
        assertThat(driver.findElement(By.cssSelector("section.witness h2")).getText())
            .isEqualTo("G2-item in history browser-db (weakest level broken: serializable)");
        List<String> headers = driver.findElements(By.cssSelector("svg g.txn.cycle tspan[font-weight=bold]"))
            .stream().map(WebElement::getText).toList();
        assertThat(headers).hasSize(2).allSatisfy(h -> assertThat(h).matches("browser-db/T\\d+ \\(session s\\d\\)"));
        assertThat(headers.stream().map(h -> h.substring(0, h.indexOf(' '))).sorted().toList()).isEqualTo(cycle);
        assertThat(driver.findElements(By.cssSelector("svg g.edge-label text")).stream().map(WebElement::getText).toList())
            .isEqualTo(labels);
        assertThat(driver.findElements(By.cssSelector("svg path.halo"))).hasSize(2);
        assertThat(driver.findElements(By.cssSelector("ol.edges li")).stream().map(WebElement::getText).toList())
            .isEqualTo(v.getWitness().getEdges().stream()
                .map(e -> e.getType().name().toLowerCase(Locale.ROOT) + " " + e.getKey() + "=" + e.getValue() + " "
                    + e.getExplanation()).toList());
        WebElement svg = driver.findElement(By.cssSelector("section.witness svg"));
        assertThat(svg.isDisplayed()).isTrue();
        assertThat(svg.getSize().getWidth()).isGreaterThan(200);
        screenshot(driver, "witness.png");
      } finally {
        driver.quit();
      }
    }
  }

  /** Headless system Chromium with a fresh profile; the driver path is explicit, so Selenium Manager never runs. */
  private ChromeDriver chrome() {
    ChromeOptions options = new ChromeOptions();
    options.setBinary(CHROMIUM);
    options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--disable-dev-shm-usage", "--window-size=1400,1000", "--user-data-dir=" + tmp.resolve("chromium-profile"));
    ChromeDriverService service = new ChromeDriverService.Builder()
        .usingDriverExecutable(Path.of(CHROMEDRIVER).toFile()).usingAnyFreePort().build();
    return new ChromeDriver(service, options);
  }

  private static void screenshot(ChromeDriver driver, String name) throws Exception {
    Files.createDirectories(SCREENSHOTS);
    Files.write(SCREENSHOTS.resolve(name), ((TakesScreenshot) driver).getScreenshotAs(OutputType.BYTES));
  }

  private static List<Violation> published(MonitorConfig config) {
    List<Violation> out = new ArrayList<>();
    for (TopicRecords.Read r : TopicRecords.readAll(KafkaBroker.bootstrapServers(), config.violationsTopic())) {
      out.add((Violation) r.value());
    }
    return out;
  }
}
