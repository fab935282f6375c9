package io.isowatch.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.isowatch.connectors.kafka.KafkaTransactionSink;
import io.isowatch.stream.config.MonitorConfig;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringReader;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.ParseResult;

/**
 * The files of {@code deploy/} agree with the code and with each other: every {@code isowatch}
 * command line in the Compose file and the Kubernetes Deployment parses with the real command line
 * (picocli, the options and converters {@code isowatch} runs with); the topics the init service
 * creates are the monitor's default topics; ports, config paths and the Prometheus job name line up.
 * There is no Docker engine or Kubernetes cluster here: these are the checks that need neither.
 */
class DeployManifestsTest {
  private static final Path DEPLOY = DeployMetricNamesTest.DEPLOY;
  private static final Pattern COMPOSE_DEFAULT = Pattern.compile("\\$\\{[A-Z_]+:-([^}]*)}");

  @Test
  void theComposeFilesMonitorAndProbeCommandsParseAndLineUp() throws IOException {
    JsonNode services = yaml(DEPLOY.resolve("compose/docker-compose.yml")).path("services");
    ParseResult monitor = parse(composeCommand(services.path("monitor")));
    assertThat(monitor.subcommand().commandSpec().name()).isEqualTo("monitor");
    Map<String, String> m = options(monitor.subcommand());
    assertThat(m).containsEntry("--bootstrap-servers", "kafka:9092")
        .containsEntry("--level", "serializable")
        .containsEntry("--metrics-host", "0.0.0.0")
        .containsEntry("--metrics-port", "9464");
    assertThat(services.path("kafka").path("environment").path("KAFKA_ADVERTISED_LISTENERS").asText())
        .contains("PLAINTEXT://kafka:9092");
    assertThat(mountSource(services.path("monitor"), m.get("--config"))).isEqualTo("./monitor.properties");
    assertThat(DEPLOY.resolve("compose/monitor.properties")).isRegularFile();
    load(Files.readString(DEPLOY.resolve("compose/monitor.properties")));

    ParseResult probe = parse(composeCommand(services.path("probe")));
    assertThat(probe.subcommand().commandSpec().name()).isEqualTo("probe");
    Map<String, String> p = options(probe.subcommand());
    assertThat(p).containsEntry("--bootstrap-servers", "kafka:9092")
        .containsEntry("--jdbc-url", "jdbc:postgresql://postgres:5432/app")
        .containsEntry("--isolation", "repeatable-read");
    assertThat(KafkaTransactionSink.DEFAULT_TOPIC).isEqualTo(MonitorConfig.EVENTS);

    String init = services.path("kafka-init").path("command").get(0).asText();
    for (String topic : List.of(MonitorConfig.EVENTS, MonitorConfig.VIOLATIONS, MonitorConfig.DLQ)) {
      assertThat(init).as("kafka-init creates " + topic)
          .containsPattern("--create --if-not-exists --topic " + Pattern.quote(topic) + " --partitions ");
    }
    String prometheus = Files.readString(DEPLOY.resolve("prometheus/prometheus.yml"));
    assertThat(prometheus).contains("job_name: isowatch-monitor", "targets: [\"monitor:9464\"]");
  }

  @Test
  void theKubernetesDeploymentRunsReplicasOfOneApplicationAndIsScrapedAsTheRulesExpect() throws IOException {
    JsonNode deployment = yaml(DEPLOY.resolve("k8s/deployment.yaml"));
    assertThat(deployment.path("spec").path("replicas").asInt()).isGreaterThanOrEqualTo(2);
    JsonNode pod = deployment.path("spec").path("template");
    JsonNode container = pod.path("spec").path("containers").get(0);
    List<String> args = new ArrayList<>();
    container.path("args").forEach(a -> args.add(a.asText()));
    ParseResult monitor = parse(args);
    Map<String, String> m = options(monitor.subcommand());
    assertThat(m).containsEntry("--application-id", "isowatch-monitor").containsEntry("--metrics-host", "0.0.0.0");
    String port = m.get("--metrics-port");
    assertThat(container.path("ports").get(0).path("containerPort").asText()).isEqualTo(port);
    assertThat(pod.path("metadata").path("annotations").path("prometheus.io/port").asText()).isEqualTo(port);

    JsonNode configMap = yaml(DEPLOY.resolve("k8s/configmap.yaml"));
    String configDir = Path.of(m.get("--config")).getParent().toString();
    assertThat(container.path("volumeMounts").findValuesAsText("mountPath")).contains(configDir,
        m.get("--state-dir"));
    Properties props = load(configMap.path("data").path(Path.of(m.get("--config")).getFileName().toString()).asText());
    assertThat(props.getProperty("replication.factor")).isEqualTo("3");

    String app = pod.path("metadata").path("labels").path("app.kubernetes.io/name").asText();
    JsonNode podMonitor = yaml(DEPLOY.resolve("k8s/podmonitor.yaml"));
    assertThat(podMonitor.path("spec").path("jobLabel").asText()).isEqualTo("app.kubernetes.io/name");
    assertThat(podMonitor.path("spec").path("selector").path("matchLabels").path("app.kubernetes.io/name").asText())
        .isEqualTo(app);
    assertThat(yaml(DEPLOY.resolve("k8s/service.yaml")).path("spec").path("ports").get(0).path("targetPort").asText())
        .isEqualTo(container.path("ports").get(0).path("name").asText());
    JsonNode scrape = yaml(DEPLOY.resolve("k8s/prometheus-scrape.yml")).path("scrape_configs").get(0);
    assertThat(scrape.path("job_name").asText()).isEqualTo(app);
    assertThat(scrape.path("relabel_configs").get(0).path("regex").asText()).isEqualTo(app);
    // the alert rules select the job by this name
    assertThat(DeployMetricNamesTest.alertExpressions()).containsEntry("alerts.yml: IsowatchMonitorDown",
        "up{job=\"" + app + "\"} == 0");
  }

  private static ParseResult parse(List<String> args) {
    CommandLine cli = IsowatchCli.commandLine(new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()));
    return cli.parseArgs(args.toArray(String[]::new));
  }

  /** @return each matched option's longest name and its value as parsed (after conversion), as text */
  private static Map<String, String> options(ParseResult r) {
    Map<String, String> out = new HashMap<>();
    r.matchedOptions().forEach(o -> out.put(o.names()[0], String.valueOf((Object) o.getValue())));
    return out;
  }

  /** @return a Compose service's command with each {@code ${VAR:-default}} replaced by its default */
  private static List<String> composeCommand(JsonNode service) {
    List<String> args = new ArrayList<>();
    for (JsonNode a : service.path("command")) {
      Matcher m = COMPOSE_DEFAULT.matcher(a.asText());
      args.add(m.replaceAll(r -> Matcher.quoteReplacement(r.group(1))));
    }
    return args;
  }

  /** @return the host side of the service's volume mounted at {@code file}'s path */
  private static String mountSource(JsonNode service, String file) {
    for (JsonNode v : service.path("volumes")) {
      String[] parts = v.asText().split(":");
      if (parts.length >= 2 && parts[1].equals(file)) {
        return parts[0];
      }
    }
    return null;
  }

  private static JsonNode yaml(Path file) throws IOException {
    try (MappingIterator<JsonNode> docs = new YAMLMapper().readerFor(JsonNode.class).readValues(file.toFile())) {
      return docs.next();
    }
  }

  private static Properties load(String text) throws IOException {
    Properties p = new Properties();
    p.load(new StringReader(text));
    return p;
  }
}
