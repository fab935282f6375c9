package io.isowatch.cli;

import io.isowatch.stream.kafka.KafkaNode;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.apache.kafka.common.utils.Utils;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code isowatch broker}: a single-node Kafka broker (KRaft) in this process ({@link KafkaNode},
 * Kafka's own server class on the port asked for), for trying the monitor, the probe and replay on
 * one machine without Docker or a Kafka installation.
 */
@Command(
    name = "broker",
    mixinStandardHelpOptions = true,
    exitCodeOnInvalidInput = ExitCode.BAD_INPUT,
    exitCodeOnExecutionException = ExitCode.INTERNAL_ERROR,
    versionProvider = IsowatchCli.Version.class,
    sortOptions = false,
    header = "Run a single-node Kafka broker in this process, to try isowatch on one machine.",
    description = {
      "Starts Kafka's own KRaft node (one broker and controller) in this process, prints one line with its address once it accepts clients, and runs until"
          + " SIGTERM or Ctrl-C, then stops cleanly. Topics are created on first use, or by"
          + " 'isowatch monitor --create-topics'. Its data lives in a new temporary folder (inside"
          + " --data-dir) deleted when it stops: a restarted broker starts empty. For anything that"
          + " must survive a restart, run a real Kafka cluster.",
      ""
    },
    footer = {
      "",
      "Examples:",
      "  isowatch broker &",
      "  isowatch monitor --bootstrap-servers localhost:9092 --create-topics &",
      "  isowatch replay --bootstrap-servers localhost:9092 --sim snapshot-isolation",
      "  isowatch broker --port 0 --data-dir /var/tmp",
      "",
      "Exit codes: 2 the port is taken, the host is not an address of this machine, or",
      "            --data-dir is not a writable folder; 3 the broker failed to start.",
      "            Stopped by SIGTERM or Ctrl-C, it stops cleanly and the JVM reports",
      "            the signal: 143 or 130."
    })
final class BrokerCommand implements Callable<Integer> {
  @Spec private CommandSpec spec;

  @Option(names = "--port", paramLabel = "PORT", defaultValue = "9092", converter = NumberRanges.Port.class,
      description = "Port clients connect to; 0 picks a free one, printed (default: ${DEFAULT-VALUE}).")
  private int port;

  @Option(names = "--host", paramLabel = "ADDRESS", defaultValue = "127.0.0.1",
      description = "Address of this machine to listen on, which the broker also gives clients to"
          + " connect to; not 0.0.0.0 (default: ${DEFAULT-VALUE}, this machine only).")
  private String host;

  @Option(names = "--data-dir", paramLabel = "DIR",
      description = "Folder in which the broker's temporary data folder is made, deleted when it stops"
          + " (default: java.io.tmpdir).")
  private Path dataDir;

  @Override
  public Integer call() throws InterruptedException {
    return UntilSignal.run(stop -> serve(host, port, Optional.ofNullable(dataDir), spec.commandLine().getOut(),
        spec.commandLine().getErr(), stop));
  }

  /**
   * Runs the broker until {@code stop} is counted down, then stops it and deletes its data.
   *
   * @param host the address to listen on and advertise
   * @param port the port, 0 for a free one
   * @param dataParent the folder to make the data folder in; empty for {@code java.io.tmpdir}
   * @param out receives one line once the broker is ready: {@code isowatch broker: listening on
   *     HOST:PORT (data in DIR, deleted when it stops); Ctrl-C stops it}
   * @param err receives why it could not start
   * @param stop counted down to stop the broker
   * @return {@link ExitCode#CONSISTENT} once stopped; {@link ExitCode#BAD_INPUT} if the address or
   *     the folder cannot be used (nothing is started); {@link ExitCode#INTERNAL_ERROR} if the
   *     broker failed to start
   * @throws InterruptedException if interrupted while running
   */
  static int serve(String host, int port, Optional<Path> dataParent, PrintWriter out, PrintWriter err,
      CountDownLatch stop) throws InterruptedException {
    Optional<String> unusable = unusableAddress(host, port).or(() -> dataParent.flatMap(BrokerCommand::unusableFolder));
    if (unusable.isPresent()) {
      err.println("isowatch broker: " + unusable.get());
      return ExitCode.BAD_INPUT;
    }
    Path data;
    try {
      data = dataParent.isPresent()
          ? Files.createTempDirectory(dataParent.get(), "isowatch-broker-")
          : Files.createTempDirectory("isowatch-broker-");
    } catch (IOException e) {
      err.println("isowatch broker: cannot make a data folder in "
          + dataParent.map(Path::toString).orElse(System.getProperty("java.io.tmpdir")) + ": " + e.getMessage());
      return ExitCode.BAD_INPUT;
    }
    KafkaNode kafka;
    try {
      kafka = KafkaNode.start(host, port, data);
    } catch (IllegalStateException e) {
      err.println("isowatch broker: " + e.getMessage());
      deleteData(data, err);
      return ExitCode.INTERNAL_ERROR;
    }
    try {
      out.println("isowatch broker: listening on " + kafka.bootstrapServers() + " (data in " + data
          + ", deleted when it stops); Ctrl-C stops it");
      out.flush();
      stop.await();
    } finally {
      kafka.close();
      deleteData(data, err);
    }
    return ExitCode.CONSISTENT;
  }

  /** Deletes the broker's data folder with its content, saying so on {@code err} if it cannot. */
  private static void deleteData(Path data, PrintWriter err) {
    try {
      Utils.delete(data.toFile());
    } catch (IOException e) {
      err.println("isowatch broker: left " + data + " behind (" + e + ")");
    }
  }

  /**
   * Whether the broker could listen on {@code host:port}, tried by binding a socket there and
   * closing it at once, so that a taken port is told in one line instead of the broker's failure.
   *
   * @return empty if it could, else why not and what to do
   */
  static Optional<String> unusableAddress(String host, int port) {
    InetAddress address;
    try {
      address = InetAddress.getByName(host);
    } catch (IOException e) {
      return Optional.of("--host " + host + ": unknown host");
    }
    if (address.isAnyLocalAddress()) {
      return Optional.of("--host " + host + ": clients cannot connect to a wildcard address; give this"
          + " machine's name or one of its addresses");
    }
    try (ServerSocket s = new ServerSocket()) {
      s.bind(new InetSocketAddress(address, port));
      return Optional.empty();
    } catch (IOException e) {
      String why = e.getMessage() != null && e.getMessage().startsWith("Address already in use")
          ? "the port is taken (another broker?); stop what listens there, or pass another --port (0 picks a free one)"
          : e.getMessage() + "; --host must be an address of this machine";
      return Optional.of("cannot listen on " + host + ":" + port + ": " + why);
    }
  }

  /** @return empty if {@code folder} is a writable folder, else why not */
  private static Optional<String> unusableFolder(Path folder) {
    if (!Files.isDirectory(folder)) {
      return Optional.of("--data-dir " + folder + ": " + (Files.exists(folder) ? "not a folder" : "no such folder"));
    }
    if (!Files.isWritable(folder)) {
      return Optional.of("--data-dir " + folder + ": the folder is not writable");
    }
    return Optional.empty();
  }
}
