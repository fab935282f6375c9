package io.isowatch.connectors.testdb;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A PostgreSQL server for one test class: the URL in {@value #URL_ENV} when set; otherwise a private
 * server started from the installed binaries ({@code initdb}, {@code pg_ctl}) on a free port in a
 * temporary directory, run as the {@code postgres} OS user when the tests run as root, and removed
 * by {@link #close()}. With neither, the test class is skipped, or fails when {@code CI} is set.
 *
 * <p>The private server has {@code wal_level=logical} (with replication slots and WAL senders) so
 * that Debezium's {@code pgoutput} can read it, and durability off ({@code fsync}, {@code
 * synchronous_commit}) since the data is thrown away. Its superuser {@value #USER} connects without
 * a password over 127.0.0.1. Start takes about 2 s. Usage: open in {@code @BeforeAll}, close in
 * {@code @AfterAll}.
 */
public final class PostgresServer implements TestDatabase {
  /** Environment variable naming an existing server's JDBC URL (user and password inside it). */
  public static final String URL_ENV = "ISOWATCH_TEST_POSTGRES_URL";
  /** The private server's superuser. */
  public static final String USER = "isowatch";

  private static final String OS_USER = "postgres";

  private final String jdbcUrl;
  private final Path dir;
  private final Path pgCtl;

  private PostgresServer(String jdbcUrl, Path dir, Path pgCtl) {
    this.jdbcUrl = jdbcUrl;
    this.dir = dir;
    this.pgCtl = pgCtl;
  }

  /**
   * @return a running server
   * @throws org.opentest4j.TestAbortedException when none can be had and {@code CI} is not set
   * @throws IllegalStateException when none can be had under CI, or the private server fails to
   *     start (the message holds its log)
   */
  public static PostgresServer start() {
    String url = System.getenv(URL_ENV);
    if (url != null && !url.isBlank()) {
      return new PostgresServer(url, null, null);
    }
    List<String> initdbs = new ArrayList<>(List.of("/usr/local/bin/initdb", "/usr/bin/initdb"));
    initdbs.addAll(LocalServer.versioned("/usr/lib/postgresql", "bin/initdb"));
    Optional<Path> initdb = LocalServer.firstExecutable(initdbs);
    if (initdb.isEmpty()) {
      LocalServer.unavailable("PostgreSQL", "set " + URL_ENV + " or install PostgreSQL"
          + " (apt-get install postgresql); looked for initdb in " + initdbs);
    }
    Path bin = initdb.get().getParent();
    Path pgCtl = bin.resolve("pg_ctl");
    Path dir = LocalServer.tempDir("isowatch-pg-", OS_USER);
    try {
      Path data = dir.resolve("data");
      LocalServer.run(LocalServer.as(OS_USER, List.of(initdb.get().toString(), "-D", data.toString(),
          "-U", USER, "--auth=trust", "-E", "UTF8", "--no-sync")), dir.resolve("initdb.out"));
      int port = LocalServer.freePort();
      String options = String.join(" ", "-p " + port, "-c listen_addresses=127.0.0.1",
          "-c unix_socket_directories=" + dir, "-c wal_level=logical", "-c max_wal_senders=4",
          "-c max_replication_slots=4", "-c fsync=off", "-c synchronous_commit=off",
          "-c full_page_writes=off", "-c max_connections=64", "-c shared_buffers=32MB");
      LocalServer.run(LocalServer.as(OS_USER, List.of(pgCtl.toString(), "-D", data.toString(),
          "-l", dir.resolve("server.log").toString(), "-o", options, "-w", "-t", "60", "start")),
          dir.resolve("pg_ctl.out"));
      return new PostgresServer("jdbc:postgresql://127.0.0.1:" + port + "/postgres?user=" + USER, dir, pgCtl);
    } catch (RuntimeException e) {
      LocalServer.deleteTree(dir);
      throw e;
    }
  }

  @Override
  public String jdbcUrl() {
    return jdbcUrl;
  }

  /** Stops the private server ({@code pg_ctl stop -m fast}) and deletes its directory. */
  @Override
  public void close() {
    if (dir == null) {
      return;
    }
    try {
      LocalServer.run(LocalServer.as(OS_USER, List.of(pgCtl.toString(), "-D", dir.resolve("data").toString(),
          "-m", "fast", "-w", "stop")), dir.resolve("pg_ctl-stop.out"));
    } finally {
      LocalServer.deleteTree(dir);
    }
  }
}
