package io.isowatch.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The Kafka client options {@code monitor}, {@code replay} and {@code probe} share. */
class KafkaClientOptionsTest {
  private static KafkaClientOptions parsed(Object command, String... args) {
    CommandLine line = new CommandLine(command);
    line.parseArgs(args);
    return (KafkaClientOptions) line.getCommandSpec().mixins().get("kafkaOptions").userObject();
  }

  private static String[] concat(String[] a, String... b) {
    return Stream.concat(Stream.of(a), Stream.of(b)).toArray(String[]::new);
  }

  @Test
  void everyCommandReadsTheSameThreeOptions() {
    String[] kafka = {"--bootstrap-servers=k:9092", "--config=c.properties", "--events-topic=t"};
    for (KafkaClientOptions o : List.of(parsed(new MonitorCommand(), kafka),
        parsed(new ReplayCommand(), concat(kafka, "--sim=causal")),
        parsed(new ProbeCommand(), concat(kafka, "--jdbc-url=jdbc:postgresql://h/d", "--isolation=serializable")))) {
      assertThat(o.bootstrapServers()).isEqualTo("k:9092");
      assertThat(o.config()).isEqualTo(Path.of("c.properties"));
      assertThat(o.eventsTopic()).isEqualTo("t");
    }
  }

  @Test
  void theEventsTopicDefaultsToTheMonitorsAndProbesTopicIsAnAlias() {
    assertThat(parsed(new ReplayCommand(), "--sim=causal", "--bootstrap-servers=k:9092").eventsTopic())
        .isEqualTo("isowatch.events");
    KafkaClientOptions probe = parsed(new ProbeCommand(), "--jdbc-url=jdbc:postgresql://h/d",
        "--isolation=serializable", "--topic=old");
    assertThat(probe.eventsTopic()).isEqualTo("old");
    assertThat(probe.bootstrapServers()).isNull();
  }

  @Test
  void theBrokersAreRequiredButByTheProbe() {
    CliRun replay = CliRun.of("replay", "--sim", "causal");
    assertThat(replay.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
    assertThat(replay.err()).startsWith("Missing required option: '--bootstrap-servers=HOST:PORT'");
    CliRun monitor = CliRun.of("monitor");
    assertThat(monitor.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
    assertThat(monitor.err()).startsWith("Missing required option: '--bootstrap-servers=HOST:PORT'");
    assertThat(CliRun.of("probe", "--help").out()).contains("[--bootstrap-servers=HOST:PORT]");
  }
}
