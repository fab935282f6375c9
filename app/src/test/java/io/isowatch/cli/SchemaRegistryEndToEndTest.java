package io.isowatch.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.isowatch.registry.RegistryServer;
import io.isowatch.schemas.DeadLetter;
import io.isowatch.schemas.TxnEvent;
import io.isowatch.schemas.Violation;
import io.isowatch.schemas.serde.RegistryFormat;
import io.isowatch.stream.config.MonitorConfig;
import io.isowatch.stream.kafka.KafkaBroker;
import io.isowatch.stream.kafka.Topics;
import io.isowatch.stream.kafka.TopicRecords;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --schema-registry-url} end to end, on a real broker and a real Apicurio Registry: {@code
 * replay} publishes in the registry wire format, the monitor reads it and publishes its violation and
 * dead letter in that format too.
 */
@ExtendWith(KafkaBroker.class)
class SchemaRegistryEndToEndTest {
  private static RegistryServer registry;

  @TempDir Path tmp;

  @BeforeAll
  static void startRegistry() throws IOException {
    registry = RegistryServer.start();
  }

  @AfterAll
  static void stopRegistry() {
    if (registry != null) {
      registry.close();
    }
  }

  @Test
  void replayAndMonitorWriteAndReadTheRegistryWireFormat() throws Exception {
    String bootstrap = KafkaBroker.bootstrapServers();
    MonitorConfig config = MonitorConfig.defaults().withTopics("reg.events", "reg.violations", "reg.dlq");
    for (String topic : List.of("reg.events", "reg.violations", "reg.dlq")) {
      KafkaBroker.broker().createTopic(topic, 1, Optional.empty());
    }
    CliRun replay = CliRun.of("replay", "--bootstrap-servers", bootstrap, "-q", "--from",
        CliRun.sample("causal-violation.jsonl").toString(), "--events-topic", "reg.events", "--history-id", "blog",
        "--schema-registry-url", "http://127.0.0.1:" + registry.port());
    assertThat(replay.exitCode()).as(replay.err()).isEqualTo(ExitCode.CONSISTENT);
    Properties clients = new Properties();
    clients.setProperty(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    clients.setProperty(RegistryFormat.URL, registry.url());
    List<TopicRecords.Read> events = TopicRecords.readAll(clients, "reg.events");
    assertThat(events).hasSize(14).allSatisfy(r -> {
      assertThat(r.raw()[0]).isEqualTo((byte) 0);
      assertThat(r.value()).isInstanceOf(TxnEvent.class);
    });
    // a record whose schema id the registry does not know
    Properties producer = new Properties();
    producer.setProperty(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    try (KafkaProducer<String, byte[]> p = new KafkaProducer<>(producer, new StringSerializer(), new ByteArraySerializer())) {
      p.send(new ProducerRecord<>("reg.events", "blog/dave", new byte[] {0, 0, 1, 0x5f, (byte) 0x90, 2})).get();
    }

    Properties overlay = new Properties();
    overlay.setProperty(StreamsConfig.STATE_DIR_CONFIG, tmp.toString());
    overlay.setProperty(RegistryFormat.URL, registry.url());
    MonitorRequest request = new MonitorRequest(config, bootstrap, "reg-app", overlay, false, Optional.empty(),
        Optional.empty(), "127.0.0.1", -1, Optional.empty(), false);
    try (RunningMonitor monitor = RunningMonitor.start(request)) {
      assertThat(monitor.startLine()).isEqualTo("monitor: application reg-app on " + bootstrap
          + ", reading reg.events (schema registry " + registry.url() + "), expecting serializable");
      await().atMost(Duration.ofSeconds(60)).until(() -> TopicRecords.readAll(clients, "reg.violations").size() == 1
          && TopicRecords.readAll(clients, "reg.dlq").size() == 1);
    }

    TopicRecords.Read violation = TopicRecords.readAll(clients, "reg.violations").get(0);
    assertThat(violation.raw()[0]).isEqualTo((byte) 0);
    assertThat(violation.key()).isEqualTo("blog");
    Violation v = (Violation) violation.value();
    assertThat(v.getLevel() + " " + v.getAnomaly()).isEqualTo("CAUSAL commit-order-cycle");
    TopicRecords.Read dead = TopicRecords.readAll(clients, "reg.dlq").get(0);
    assertThat(dead.raw()[0]).isEqualTo((byte) 0);
    DeadLetter d = (DeadLetter) dead.value();
    assertThat(d.getReason()).isEqualTo("unknown-schema: schema id 90000 at byte 1 is not in the schema registry "
        + registry.url() + " (ContentNotFoundException: No content with id/hash 'contentId-90000' was found.)");
  }

  @Test
  void aRegistryThatDoesNotAnswerIsASetupErrorOfMonitorAndReplay() throws IOException {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    String bootstrap = KafkaBroker.bootstrapServers();
    String url = "http://127.0.0.1:" + port;
    CliRun monitor = CliRun.of("monitor", "--bootstrap-servers", bootstrap, "--create-topics", "--events-topic",
        "noreg.events", "--violations-topic", "noreg.violations", "--dlq-topic", "noreg.dlq", "--metrics-port", "-1",
        "--schema-registry-url", url);
    assertThat(monitor.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
    // checked before anything is created
    assertThat(monitor.err().lines().toList()).containsExactly(
        "isowatch monitor: the schema registry " + url + "/apis/registry/v2 does not answer: ConnectException;"
            + " check --schema-registry-url and the apicurio.* settings in --config");
    assertThat(Topics.missing(KafkaBroker.broker().admin(), List.of("noreg.events"))).containsExactly("noreg.events");
    KafkaBroker.broker().createTopic("noreg.events", 1, Optional.empty());
    CliRun replay = CliRun.of("replay", "--bootstrap-servers", bootstrap, "-q", "--sim", "causal", "--transactions", "8",
        "--events-topic", "noreg.events", "--schema-registry-url", url);
    assertThat(replay.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
    assertThat(replay.err().lines().toList()).containsExactly(
        "isowatch replay: the schema registry " + url + "/apis/registry/v2 does not answer: ConnectException;"
            + " check --schema-registry-url and the apicurio.* settings in --config");
  }

  @Test
  void withAutoRegistrationOffTheMonitorStopsAtStartOnAViolationSchemaNobodyRegistered() throws IOException {
    Path config = tmp.resolve("strict.properties");
    Files.writeString(config, "apicurio.registry.auto-register=false\n");
    String url = registry.url();
    String[] args = {"monitor", "--bootstrap-servers", KafkaBroker.bootstrapServers(), "--create-topics", "--events-topic",
        "strict.events", "--violations-topic", "strict.violations", "--dlq-topic", "strict.dlq", "--metrics-port", "-1",
        "--schema-registry-url", url, "--config", config.toString()};

    CliRun run = CliRun.of(args);

    assertThat(run.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
    // rather than a stream thread failing at the first violation, again and again
    assertThat(run.err()).startsWith("isowatch monitor: the schema registry " + url + " has no"
        + " Violation schema for topic strict.violations and apicurio.registry.auto-register is false: register it"
        + " (artifact strict.violations-Violation of group io.isowatch.schemas, from schemas/src/main/avro/) or allow"
        + " auto-registration (");
    assertThat(Topics.missing(KafkaBroker.broker().admin(), List.of("strict.events"))).containsExactly("strict.events");
    // the dead-letter topic's schema is asked for next, once the violations topic has its schema
    try (RegistryFormat registering = new RegistryFormat(Map.of(RegistryFormat.URL, url))) {
      registering.requireWritable("strict.violations", Violation.class);
    }
    assertThat(CliRun.of(args).err()).contains(" has no DeadLetter schema for topic strict.dlq ");
  }

  @Test
  void aBadRegistryUrlInTheConfigFileIsAUsageErrorToo() throws IOException {
    Path config = tmp.resolve("client.properties");
    Files.writeString(config, "apicurio.registry.url=ftp://nope\n");
    CliRun run = CliRun.of("replay", "--bootstrap-servers", "x:1", "--sim", "causal", "--config", config.toString());
    assertThat(run.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
    assertThat(run.err()).startsWith("apicurio.registry.url in --config: schema registry URL 'ftp://nope' must be"
        + " http://HOST[:PORT][/PATH] or https://...");
  }

  @Test
  void aRegistryUrlThatIsNotHttpIsAUsageError() {
    CliRun run = CliRun.of("replay", "--bootstrap-servers", "x:1", "--sim", "causal", "--schema-registry-url",
        "registry:8080");
    assertThat(run.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
    assertThat(run.err()).startsWith("--schema-registry-url: schema registry URL 'registry:8080' must be"
        + " http://HOST[:PORT][/PATH] or https://...");
  }
}
