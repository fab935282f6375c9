package io.isowatch.stream.kafka;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.ClientDnsLookup;
import org.apache.kafka.clients.ClientUtils;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.errors.AuthenticationException;
import org.apache.kafka.common.errors.TimeoutException;

/**
 * Whether a Kafka cluster answers, asked once with a bound before a command talks to it otherwise:
 * a producer waits {@code max.block.ms} (60 s by default) for an unreachable cluster's metadata, an
 * admin call {@code default.api.timeout.ms} (60 s), before either says anything (Kafka
 * documentation, "Producer Configs" and "Admin Configs").
 */
public final class Brokers {
  /** How long {@link #unanswered} waits for the cluster's answer: long enough for a TLS and SASL handshake. */
  public static final Duration CHECK_TIMEOUT = Duration.ofSeconds(10);
  /** How long one TCP connection attempt of the refusal probe may take before the admin check runs instead. */
  private static final Duration REFUSAL_PROBE = Duration.ofSeconds(2);

  private Brokers() {}

  /**
   * Asks the cluster for its brokers ({@code describeCluster}, Kafka documentation, "Admin API")
   * through an admin client made from {@code clientProperties}, so with the same security settings
   * ({@code security.protocol}, {@code sasl.*}, {@code ssl.*}) as the clients that follow. Before
   * that, when every bootstrap address refuses a TCP connection (2 s at most each), it says so at
   * once instead of letting the admin client retry until {@code timeout}.
   *
   * @param clientProperties client settings holding {@code bootstrap.servers}; settings the admin
   *     client does not know are ignored (Kafka logs them at INFO)
   * @param timeout how long to wait for the answer, e.g. {@link #CHECK_TIMEOUT}
   * @return empty if the cluster answered within {@code timeout}; otherwise why not, naming the
   *     bootstrap servers, e.g. {@code Kafka at 127.0.0.1:1 refused the connection: nothing listens
   *     there}, {@code Kafka at 10.0.0.9:9092 did not answer within 10 s} or {@code
   *     Kafka at broker:9093 refused the connection: SaslAuthenticationException: ...} (an
   *     authentication failure; other errors say {@code failed:})
   * @throws InterruptedException if interrupted while waiting (the admin client is closed)
   */
  public static Optional<String> unanswered(Map<?, ?> clientProperties, Duration timeout)
      throws InterruptedException {
    Properties p = new Properties();
    p.putAll(clientProperties);
    String servers = p.getProperty(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG);
    String where = "Kafka at " + servers;
    if (servers != null && everyAddressRefuses(servers)) {
      return Optional.of(where + " refused the connection: nothing listens there");
    }
    Admin admin;
    try {
      admin = Admin.create(p);
    } catch (KafkaException e) {
      // e.g. "No resolvable bootstrap urls given in bootstrap.servers", or a bad security setting
      Throwable reason = e.getCause() != null ? e.getCause() : e;
      return Optional.of(where + ": " + reason.getMessage());
    }
    try (admin) {
      admin.describeCluster(new DescribeClusterOptions().timeoutMs((int) timeout.toMillis()))
          .nodes().get();
      return Optional.empty();
    } catch (ExecutionException e) {
      if (e.getCause() instanceof TimeoutException) {
        return Optional.of(where + " did not answer within " + seconds(timeout));
      }
      Throwable cause = e.getCause();
      return Optional.of(where + (cause instanceof AuthenticationException ? " refused the connection: "
          : " failed: ") + cause.getClass().getSimpleName() + ": " + cause.getMessage());
    }
  }

  /**
   * Whether a TCP connection to each bootstrap address is refused, which a client would only report
   * after its timeout, retrying and logging each attempt. Addresses that do not parse or resolve are
   * left to the admin client, which names the problem.
   *
   * @param servers the {@code bootstrap.servers} list, {@code host:port} separated by commas
   */
  private static boolean everyAddressRefuses(String servers) {
    List<InetSocketAddress> addresses;
    try {
      addresses = ClientUtils.parseAndValidateAddresses(
          Arrays.stream(servers.split(",")).map(String::strip).filter(a -> !a.isEmpty()).toList(),
          ClientDnsLookup.USE_ALL_DNS_IPS);
    } catch (ConfigException e) {
      return false;
    }
    for (InetSocketAddress a : addresses) {
      try (Socket socket = new Socket()) {
        socket.connect(a, (int) REFUSAL_PROBE.toMillis());
        return false;
      } catch (ConnectException refused) {
        // next address
      } catch (IOException other) {
        return false; // a timeout or an unreachable network: the admin client's check tells
      }
    }
    return !addresses.isEmpty();
  }

  private static String seconds(Duration d) {
    return d.toMillis() % 1000 == 0 ? d.toSeconds() + " s" : d.toMillis() + " ms";
  }
}
