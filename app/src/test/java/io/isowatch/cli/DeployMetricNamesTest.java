package io.isowatch.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.isowatch.checker.level.Level;
import io.isowatch.schemas.TxnEvent;
import io.isowatch.stream.config.MonitorConfig;
import io.isowatch.stream.kafka.KafkaBroker;
import io.isowatch.stream.metrics.MetricsEndpoint;
import io.isowatch.stream.replay.HistoryRecords;
import io.isowatch.stream.replay.Replayer;
import io.isowatch.stream.replay.WriteSkewWorkload;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every metric name that {@code deploy/prometheus/alerts.yml} and {@code deploy/grafana/isowatch.json}
 * query is one a running monitor exports: {@code isowatch monitor}'s runner on a real broker ({@link
 * KafkaBroker}), fed write skews in two histories (one expected serializable, so they are published
 * violations; one expected snapshot isolation, so they are counted as stronger-level-only) and one
 * record it cannot decode (a dead letter), is scraped over HTTP at {@code /metrics}; the names queried
 * must be among the scrape's sample names ({@code _bucket}/{@code _count}/{@code _sum} of a histogram
 * are sample names there). The one exception is {@code up}, which Prometheus itself writes for every
 * scrape target (Prometheus documentation, "Jobs and instances").
 *
 * <p>The scrape is saved as {@code target/deploy-metrics-scrape.txt} for whoever edits the rules.
 */
@ExtendWith(KafkaBroker.class)
class DeployMetricNamesTest {
  /** The repository's {@code deploy/} folder; tests run in the module's directory, {@code app}. */
  static final Path DEPLOY = Path.of("../deploy").toAbsolutePath().normalize();
  private static final Set<String> PROMETHEUS_OWN = Set.of("up");
  private static final Path SCRAPE_FILE = Path.of("target", "deploy-metrics-scrape.txt");

  @TempDir Path tmp;

  @Test
  void everyMetricTheRulesAndTheDashboardQueryIsOneTheMonitorExports() throws Exception {
    SortedMap<String, SortedSet<String>> queried = new TreeMap<>();
    for (Map.Entry<String, String> q : alertExpressions().entrySet()) {
      add(queried, q.getKey(), q.getValue());
    }
    for (Map.Entry<String, String> q : dashboardExpressions().entrySet()) {
      add(queried, q.getKey(), q.getValue());
    }
    assertThat(queried).containsKeys("isowatch_violations_total", "isowatch_reads_unresolved_total",
        "isowatch_dlq_records_total", "isowatch_check_latency_seconds_bucket",
        "kafka_consumer_fetch_manager_records_lag_max", "up");

    MonitorConfig config = MonitorConfig.defaults()
        .withTopics("deploy.events", "deploy.violations", "deploy.dlq")
        .withExpectedLevel(Level.SERIALIZABLE)
        .withLevelByHistory(Map.of("deploy-si", Level.SNAPSHOT_ISOLATION));
    Properties overlay = new Properties();
    overlay.setProperty(StreamsConfig.STATE_DIR_CONFIG, tmp.toString());
    MonitorRequest request = new MonitorRequest(config, KafkaBroker.bootstrapServers(), "deploy-app", overlay,
        true, Optional.of(1), Optional.of((short) 1), MetricsEndpoint.DEFAULT_BIND, 0, Optional.empty(), false);
    try (RunningMonitor monitor = RunningMonitor.start(request)) {
      URI metrics = monitor.metrics();
      WriteSkewWorkload.Generated run = publishWriteSkews(config, "deploy-serializable");
      publishWriteSkews(config, "deploy-si");
      int skews = run.skews().size();
      int transactions = 2 * run.history().txnCount();
      publishUndecodable(config);

      AtomicReference<String> scrape = new AtomicReference<>();
      await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofSeconds(1)).untilAsserted(() -> {
        scrape.set(scrape(metrics));
        Files.writeString(SCRAPE_FILE, scrape.get(), StandardCharsets.UTF_8);
        Set<String> exported = sampleNames(scrape.get());
        SortedMap<String, SortedSet<String>> missing = new TreeMap<>(queried);
        missing.keySet().removeAll(exported);
        missing.keySet().removeAll(PROMETHEUS_OWN);
        assertThat(missing).as("metric names queried (with where) that the monitor does not export").isEmpty();
        // all the input is checked: each history's write skews, published or only counted, and the dead letter
        assertThat(scrape.get().lines().toList()).contains(
            "isowatch_transactions_checked_total " + transactions + ".0",
            "isowatch_violations_total{anomaly=\"G2-item\",level=\"serializable\"} " + skews + ".0",
            "isowatch_observations_stronger_level_only_total{anomaly=\"G2-item\",level=\"serializable\"} "
                + skews + ".0",
            "isowatch_check_latency_seconds_count " + skews,
            "isowatch_dlq_records_total{reason=\"bad-marker\"} 1.0");
      });
    }
  }

  /** @return each rule's expression, keyed {@code alerts.yml: ALERTNAME} */
  static Map<String, String> alertExpressions() throws IOException {
    JsonNode root = new YAMLMapper().readTree(DEPLOY.resolve("prometheus/alerts.yml").toFile());
    Map<String, String> out = new TreeMap<>();
    for (JsonNode group : root.path("groups")) {
      for (JsonNode rule : group.path("rules")) {
        String name = rule.has("alert") ? rule.get("alert").asText() : rule.path("record").asText();
        out.put("alerts.yml: " + name, rule.path("expr").asText());
      }
    }
    assertThat(out).as("rules in alerts.yml").isNotEmpty();
    return out;
  }

  /** @return each panel target's expression, keyed {@code isowatch.json: PANEL TITLE #REFID} */
  static Map<String, String> dashboardExpressions() throws IOException {
    JsonNode root = new ObjectMapper().readTree(DEPLOY.resolve("grafana/isowatch.json").toFile());
    Map<String, String> out = new TreeMap<>();
    List<JsonNode> panels = new ArrayList<>();
    root.path("panels").forEach(panels::add);
    for (int i = 0; i < panels.size(); i++) {
      JsonNode panel = panels.get(i);
      panel.path("panels").forEach(panels::add); // panels inside collapsed rows
      for (JsonNode target : panel.path("targets")) {
        out.put("isowatch.json: " + panel.path("title").asText() + " #" + target.path("refId").asText(),
            target.path("expr").asText());
      }
    }
    assertThat(out).as("panel queries in isowatch.json").isNotEmpty();
    return out;
  }

  private static void add(SortedMap<String, SortedSet<String>> queried, String where, String expr) {
    SortedSet<String> names = PromQlMetricNames.of(expr);
    assertThat(names).as("metric names in " + where + ": " + expr).isNotEmpty();
    for (String n : names) {
      queried.computeIfAbsent(n, k -> new TreeSet<>()).add(where);
    }
  }

  /** @return the metric name of every sample line of a Prometheus text scrape */
  static Set<String> sampleNames(String scrape) {
    Set<String> names = new TreeSet<>();
    scrape.lines().filter(l -> !l.isBlank() && !l.startsWith("#"))
        .forEach(l -> names.add(l.split("[{ ]", 2)[0]));
    return names;
  }

  private static String scrape(URI metrics) throws IOException, InterruptedException {
    HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(metrics).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).isEqualTo(200);
    return r.body();
  }

  /** @return the generated run published (the same for every history id) */
  private static WriteSkewWorkload.Generated publishWriteSkews(MonitorConfig config, String historyId) {
    WriteSkewWorkload.Generated run = WriteSkewWorkload.generate(120, 4, 6, 20, 7);
    assertThat(run.skews()).isNotEmpty();
    HistoryRecords records = new HistoryRecords(run.history(), historyId, Instant.now(), Duration.ofMillis(1));
    List<HistoryRecords.Keyed> events = new ArrayList<>();
    records.forEachEvent(k -> {
      TxnEvent e = (TxnEvent) k.value();
      e.setTxnId(historyId + "-" + e.getTxnId()); // txnIds are globally unique (docs/events.md)
      events.add(k);
    });
    try (Replayer replayer = new Replayer(clients(), config.eventsTopic())) {
      assertThat(replayer.publish(events)).isEqualTo(events.size());
    }
    return run;
  }

  private static void publishUndecodable(MonitorConfig config) throws Exception {
    Properties p = clients();
    try (KafkaProducer<String, byte[]> producer =
        new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer())) {
      producer.send(new ProducerRecord<>(config.eventsTopic(), "deploy-serializable/s0",
          "not an event".getBytes(StandardCharsets.UTF_8))).get(30, TimeUnit.SECONDS);
    }
  }

  private static Properties clients() {
    Properties p = new Properties();
    p.setProperty(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, KafkaBroker.bootstrapServers());
    return p;
  }
}
