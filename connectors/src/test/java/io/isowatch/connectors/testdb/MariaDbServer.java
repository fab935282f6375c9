package io.isowatch.connectors.testdb;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A MariaDB server for one test class: the URL in {@value #URL_ENV} when set (then {@code
 * innodb_snapshot_isolation} is set with {@code SET GLOBAL}, which needs the SUPER privilege);
 * otherwise a private {@code mariadbd} started from the installed binaries on a free port in a
 * temporary directory ({@code mariadb-install-db}, then the server in the foreground, as the {@code
 * mysql} OS user when the tests run as root), stopped and removed by {@link #close()}. With neither,
 * the test class is skipped, or fails when {@code CI} is set.
 *
 * <p>The private server has the binary log Debezium needs ({@code log_bin}, {@code
 * binlog_format=ROW}, {@code binlog_row_image=FULL}, {@code server_id=1}), durability relaxed,
 * {@code --skip-grant-tables} (any user, no password, over 127.0.0.1), and {@code
 * innodb_snapshot_isolation} as asked. That variable exists from MariaDB 10.6.18 / 10.11.8 / 11.4.2
 * (MDEV-35124) and defaults to ON from 11.6; this machine has 10.11.19. Start takes about 2 s.
 */
public final class MariaDbServer implements TestDatabase {
  /** Environment variable naming an existing server's JDBC URL (user and password inside it). */
  public static final String URL_ENV = "ISOWATCH_TEST_MARIADB_URL";

  private static final String OS_USER = "mysql";

  private final String jdbcUrl;
  private final Path dir;
  private final Process process;

  private MariaDbServer(String jdbcUrl, Path dir, Process process) {
    this.jdbcUrl = jdbcUrl;
    this.dir = dir;
    this.process = process;
  }

  /**
   * @param snapshotIsolation the value of {@code innodb_snapshot_isolation}: ON makes InnoDB's
   *     REPEATABLE READ abort an update of a row changed since the transaction's snapshot (error
   *     1020), OFF lets it update the latest version
   * @return a running server
   * @throws org.opentest4j.TestAbortedException when none can be had and {@code CI} is not set
   * @throws IllegalStateException when none can be had under CI, or the private server fails to
   *     start within 60 s (the message holds its error log)
   */
  public static MariaDbServer start(boolean snapshotIsolation) {
    String url = System.getenv(URL_ENV);
    if (url != null && !url.isBlank()) {
      try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
        s.execute("SET GLOBAL innodb_snapshot_isolation = " + (snapshotIsolation ? "ON" : "OFF"));
      } catch (SQLException e) {
        throw new IllegalStateException("cannot set innodb_snapshot_isolation on " + url + ": " + e.getMessage(), e);
      }
      return new MariaDbServer(url, null, null);
    }
    List<String> servers = List.of("/usr/sbin/mariadbd", "/usr/bin/mariadbd", "/usr/local/bin/mariadbd");
    List<String> installers = List.of("/usr/bin/mariadb-install-db", "/usr/local/bin/mariadb-install-db");
    Optional<Path> server = LocalServer.firstExecutable(servers);
    Optional<Path> installer = LocalServer.firstExecutable(installers);
    if (server.isEmpty() || installer.isEmpty()) {
      LocalServer.unavailable("MariaDB", "set " + URL_ENV + " or install MariaDB (apt-get install"
          + " mariadb-server); looked for " + servers + " and " + installers);
    }
    Path dir = LocalServer.tempDir("isowatch-mariadb-", OS_USER);
    Process process = null;
    try {
      Path data = dir.resolve("data");
      List<String> install = new ArrayList<>(List.of(installer.get().toString(), "--no-defaults",
          "--datadir=" + data, "--auth-root-authentication-method=normal", "--skip-test-db"));
      if (LocalServer.root()) {
        install.add("--user=" + OS_USER);
      }
      LocalServer.run(install, dir.resolve("install-db.out"));
      int port = LocalServer.freePort();
      List<String> cmd = new ArrayList<>(List.of(server.get().toString(), "--no-defaults",
          "--datadir=" + data, "--socket=" + dir.resolve("sock"), "--port=" + port,
          "--bind-address=127.0.0.1", "--pid-file=" + dir.resolve("pid"),
          "--log-error=" + dir.resolve("error.log"), "--server-id=1", "--log-bin=" + dir.resolve("binlog"),
          "--binlog-format=ROW", "--binlog-row-image=FULL",
          "--innodb-snapshot-isolation=" + (snapshotIsolation ? "ON" : "OFF"),
          "--innodb-buffer-pool-size=64M", "--innodb-flush-log-at-trx-commit=0", "--sync-binlog=0",
          "--skip-grant-tables", "--skip-name-resolve", "--max-connections=64"));
      if (LocalServer.root()) {
        cmd.add("--user=" + OS_USER);
      }
      Path out = dir.resolve("mariadbd.out");
      process = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile()).start();
      String jdbcUrl = "jdbc:mariadb://127.0.0.1:" + port + "/mysql?user=root";
      Process p = process;
      await("MariaDB on port " + port).atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(50))
          .until(() -> {
            if (!p.isAlive()) {
              throw new IllegalStateException("mariadbd exited with " + p.exitValue() + "; error log:\n"
                  + readOrEmpty(dir.resolve("error.log")) + readOrEmpty(out));
            }
            try (Connection c = DriverManager.getConnection(jdbcUrl)) {
              return true;
            } catch (SQLException e) {
              return false;
            }
          });
      return new MariaDbServer(jdbcUrl, dir, process);
    } catch (IOException e) {
      LocalServer.deleteTree(dir);
      throw new UncheckedIOException("cannot start " + server.get(), e);
    } catch (RuntimeException e) {
      if (process != null) {
        stop(process);
      }
      LocalServer.deleteTree(dir);
      throw e;
    }
  }

  @Override
  public String jdbcUrl() {
    return jdbcUrl;
  }

  /** Stops the private server (SIGTERM, a clean shutdown; SIGKILL after 30 s) and deletes its directory. */
  @Override
  public void close() {
    if (dir == null) {
      return;
    }
    try {
      stop(process);
    } finally {
      LocalServer.deleteTree(dir);
    }
  }

  private static void stop(Process p) {
    p.destroy();
    try {
      if (!p.waitFor(30, TimeUnit.SECONDS)) {
        p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      p.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }

  private static String readOrEmpty(Path p) {
    try {
      return Files.exists(p) ? Files.readString(p) : "";
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
