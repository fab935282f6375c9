package io.isowatch.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * One in-process run of the command line with captured streams.
 *
 * @param exitCode what {@code CommandLine.execute} returned
 * @param out everything printed on standard output
 * @param err everything printed on standard error
 */
record CliRun(int exitCode, String out, String err) {
  /** Runs {@code isowatch ARGS} in this JVM, with the parser {@link IsowatchCli#main} would use. */
  static CliRun of(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = IsowatchCli.commandLine(args, new PrintWriter(out, true), new PrintWriter(err, true))
        .execute(args);
    return new CliRun(code, out.toString(), err.toString());
  }

  /**
   * @return {@code 127.0.0.1:PORT} of a loopback port nothing listens on (one the system just gave
   *     out and took back), where a connection is refused
   * @throws IOException if no port can be had
   */
  static String closedAddress() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return "127.0.0.1:" + s.getLocalPort();
    }
  }

  /**
   * Writes a {@code --config} file asking for SASL/PLAIN over plaintext, which the test broker's
   * plaintext listener refuses: a command whose broker check uses the file's security settings
   * fails with {@link #SASL_REFUSED}.
   *
   * @param dir where to write {@code sasl.properties}
   * @return the file
   * @throws IOException if it cannot be written
   */
  static Path saslConfig(Path dir) throws IOException {
    Path config = dir.resolve("sasl.properties");
    Files.writeString(config, "security.protocol=SASL_PLAINTEXT\nsasl.mechanism=PLAIN\n"
        + "sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required"
        + " username=\"u\" password=\"p\";\n");
    return config;
  }

  /** What follows {@code Kafka at HOST:PORT} when the broker refuses {@link #saslConfig}'s settings (Kafka 4.3). */
  static final String SASL_REFUSED = " refused the connection: IllegalSaslStateException: Unexpected handshake"
      + " request with client mechanism PLAIN, enabled mechanisms are []" + StartupChecks.BROKER_HINT + "\n";

  /** @return the first {@code n} lines of standard output */
  List<String> firstLines(int n) {
    return out.lines().limit(n).toList();
  }

  /**
   * @return the path of an example history under {@code docs/examples/} (tests run in the module's
   *     directory, {@code app})
   */
  static Path sample(String name) {
    return Path.of("../docs/examples", name).toAbsolutePath().normalize();
  }
}
