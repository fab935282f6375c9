package io.isowatch.connect.worker;

import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.isowatch.connectors.testdb.PostgresServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import org.awaitility.core.ConditionFactory;

/**
 * Test fixture: Debezium's PostgreSQL connector in a {@link ConnectWorkerProcess}, configured from
 * one of the deployable examples under {@code deploy/connect/} and pointed at a private server and a
 * replication slot of the test's. Written for a loaded machine: every wait is on a condition with
 * minutes of patience ({@link #PATIENCE}).
 */
public final class DebeziumPostgres {
  /** The longest wait for one step: a JVM's start, a record's way through Connect, the monitor. */
  public static final Duration PATIENCE = Duration.ofMinutes(4);

  private final PostgresServer server;
  private final String slot;

  /**
   * @param server the database the connector captures
   * @param slot the connector's replication slot and publication
   */
  public DebeziumPostgres(PostgresServer server, String slot) {
    this.server = server;
    this.slot = slot;
  }

  /**
   * @param example a file name under {@code deploy/connect/}, e.g. {@code isowatch-cdc-connector.json}
   * @return its {@code config}, with the server's host, port, database and user, an empty password,
   *     and this fixture's slot and publication
   * @throws IOException if the file cannot be read
   */
  public Map<String, String> connectorConfig(String example) throws IOException {
    Path file = Path.of(System.getProperty("user.dir")).resolve("../deploy/connect").resolve(example);
    Map<String, Object> read = new ObjectMapper().readValue(Files.readString(file), new TypeReference<>() { });
    @SuppressWarnings("unchecked")
    Map<String, String> config = new HashMap<>((Map<String, String>) read.get("config"));
    Properties url = org.postgresql.Driver.parseURL(server.jdbcUrl(), null);
    config.put("database.hostname", url.getProperty("PGHOST"));
    config.put("database.port", url.getProperty("PGPORT"));
    config.put("database.dbname", url.getProperty("PGDBNAME"));
    config.put("database.user", url.getProperty("user"));
    config.put("database.password", "");
    config.put("slot.name", slot);
    config.put("publication.name", slot);
    return config;
  }

  /**
   * Starts a worker, submits the connector and waits until its task runs and holds the replication
   * slot: a transaction committed after is captured.
   *
   * @param dir the worker's directory ({@link ConnectWorkerProcess#start})
   * @param name the worker's name, which names its files in {@code dir}
   * @param bootstrapServers the broker
   * @param plugins the plugin path ({@link Plugins#prepare})
   * @param offsets the standalone offsets file
   * @param connector the connector's name
   * @param config its configuration
   * @return the worker
   * @throws AssertionError if the connector's task fails (with the worker's log)
   */
  public ConnectWorkerProcess startStreaming(Path dir, String name, String bootstrapServers, Path plugins,
      Path offsets, String connector, Map<String, String> config) throws IOException, InterruptedException {
    ConnectWorkerProcess worker = ConnectWorkerProcess.start(dir, name, bootstrapServers, offsets, plugins, PATIENCE);
    worker.putConnector(connector, config);
    waiting().until(() -> {
      String task = worker.taskState(connector);
      if (task.startsWith("FAILED")) {
        throw new AssertionError("the connector's task failed (" + worker.log() + "): " + task);
      }
      return task.equals("RUNNING") && slotActive();
    });
    return worker;
  }

  /** @return whether a server process streams the slot */
  public boolean slotActive() throws SQLException {
    return slotPid() != 0;
  }

  /** @return the process id of the server process streaming the slot, 0 while none does */
  public int slotPid() throws SQLException {
    try (Connection c = server.connect();
        PreparedStatement s = c.prepareStatement("SELECT active_pid FROM pg_replication_slots WHERE slot_name = ?")) {
      s.setString(1, slot);
      try (ResultSet rs = s.executeQuery()) {
        return rs.next() ? rs.getInt(1) : 0;
      }
    }
  }

  /**
   * @return Awaitility with {@link #PATIENCE}, polling every second: each poll of a topic starts a
   *     consumer, and faster polling only takes CPU from the worker, the connector and the monitor on
   *     a shared machine
   */
  public static ConditionFactory waiting() {
    return await().atMost(PATIENCE).pollInterval(Duration.ofSeconds(1));
  }
}
