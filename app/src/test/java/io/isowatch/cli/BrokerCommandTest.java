package io.isowatch.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code isowatch broker}: a real broker on the address it prints, and the errors that stop it starting. */
class BrokerCommandTest {
  private static final Pattern READY = Pattern.compile(
      "isowatch broker: listening on (127\\.0\\.0\\.1:\\d+) \\(data in (\\S+), deleted when it stops\\); Ctrl-C stops it");

  @TempDir Path tmp;

  /**
   * On the port asked for (a free one found first, as {@code --port 9092} would be used), and on port
   * 0: a topic created, a record written and read back through the printed address, which is the
   * port asked for; stopped as SIGTERM would, it exits 0 and its data folder is gone.
   */
  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void servesClientsOnThePrintedAddressAndStopsCleanly(boolean fixedPort) throws Exception {
    int port = 0;
    if (fixedPort) {
      try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
        port = probe.getLocalPort();
      }
    }
    int asked = port;
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CountDownLatch stop = new CountDownLatch(1);
    CompletableFuture<Integer> code = CompletableFuture.supplyAsync(() -> {
      try {
        return BrokerCommand.serve("127.0.0.1", asked, Optional.of(tmp), new PrintWriter(out, true),
            new PrintWriter(err, true), stop);
      } catch (InterruptedException e) {
        throw new IllegalStateException(e);
      }
    });
    try {
      await().atMost(Duration.ofSeconds(60)).until(() -> !out.toString().isEmpty() || code.isDone());
      List<String> lines = out.toString().lines().toList();
      assertThat(lines).as(err.toString()).hasSize(1);
      Matcher ready = READY.matcher(lines.get(0));
      assertThat(ready.matches()).as(lines.get(0)).isTrue();
      String bootstrap = ready.group(1);
      if (fixedPort) {
        assertThat(bootstrap).isEqualTo("127.0.0.1:" + asked);
      }
      Path data = Path.of(ready.group(2));
      assertThat(data.getParent()).isEqualTo(tmp);
      assertThat(data).isDirectory();

      Map<String, Object> clients = Map.of(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
      try (Admin admin = Admin.create(clients)) {
        admin.createTopics(List.of(new NewTopic("tried", 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
        // created means committed by the controller; the broker's metadata cache learns it a moment later
        await().atMost(Duration.ofSeconds(30))
            .until(() -> admin.listTopics().names().get(30, TimeUnit.SECONDS).contains("tried"));
      }
      try (KafkaProducer<String, String> producer =
          new KafkaProducer<>(clients, new StringSerializer(), new StringSerializer())) {
        producer.send(new ProducerRecord<>("tried", "k", "v")).get(30, TimeUnit.SECONDS);
      }
      try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(
          Map.of(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrap, ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
              "earliest"), new StringDeserializer(), new StringDeserializer())) {
        TopicPartition p = new TopicPartition("tried", 0);
        consumer.assign(List.of(p));
        consumer.seekToBeginning(List.of(p));
        List<String> read = new ArrayList<>();
        await().atMost(Duration.ofSeconds(30)).until(() -> {
          for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(200))) {
            read.add(r.key() + "=" + r.value());
          }
          return !read.isEmpty();
        });
        assertThat(read).containsExactly("k=v");
      }
      stop.countDown();
      assertThat(code.get(60, TimeUnit.SECONDS)).isEqualTo(ExitCode.CONSISTENT);
      assertThat(data).doesNotExist();
      assertThat(err.toString()).isEmpty();
    } finally {
      stop.countDown();
    }
  }

  @Test
  void aTakenPortIsAUsageErrorThatSaysWhatToDo() throws Exception {
    try (ServerSocket taken = new ServerSocket()) {
      taken.bind(new InetSocketAddress("127.0.0.1", 0));
      CliRun run = CliRun.of("broker", "--port", Integer.toString(taken.getLocalPort()));
      assertThat(run.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
      assertThat(run.out()).isEmpty();
      assertThat(run.err()).isEqualTo("isowatch broker: cannot listen on 127.0.0.1:" + taken.getLocalPort()
          + ": the port is taken (another broker?); stop what listens there, or pass another --port (0 picks a"
          + " free one)\n");
    }
  }

  @Test
  void aMissingDataFolderOrAWildcardHostIsAUsageError() throws Exception {
    Path file = Files.writeString(tmp.resolve("file"), "");
    CliRun missing = CliRun.of("broker", "--port", "0", "--data-dir", tmp.resolve("nope").toString());
    assertThat(missing.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
    assertThat(missing.err()).isEqualTo("isowatch broker: --data-dir " + tmp.resolve("nope") + ": no such folder\n");
    CliRun notAFolder = CliRun.of("broker", "--port", "0", "--data-dir", file.toString());
    assertThat(notAFolder.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
    assertThat(notAFolder.err()).isEqualTo("isowatch broker: --data-dir " + file + ": not a folder\n");
    CliRun wildcard = CliRun.of("broker", "--port", "0", "--host", "0.0.0.0");
    assertThat(wildcard.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
    assertThat(wildcard.err()).isEqualTo("isowatch broker: --host 0.0.0.0: clients cannot connect to a wildcard"
        + " address; give this machine's name or one of its addresses\n");
  }

  @Test
  void helpSaysWhatItRunsAndShowsExamples() {
    CliRun run = CliRun.of("broker", "--help");
    assertThat(run.exitCode()).isEqualTo(ExitCode.CONSISTENT);
    assertThat(run.firstLines(2)).containsExactly(
        "Run a single-node Kafka broker in this process, to try isowatch on one machine.",
        "Usage: isowatch broker [-hV] [--data-dir=DIR] [--host=ADDRESS] [--port=PORT]");
    assertThat(run.out()).contains("  isowatch broker &", "--port=PORT", "0 picks a free one");
  }
}
