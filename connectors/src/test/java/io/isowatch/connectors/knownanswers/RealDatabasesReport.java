package io.isowatch.connectors.knownanswers;

import static org.assertj.core.api.Assertions.assertThat;

import io.isowatch.checker.level.Anomaly;
import io.isowatch.connectors.probe.Scenario;
import io.isowatch.connectors.testdb.MariaDbServer;
import io.isowatch.connectors.testdb.PostgresServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Produces the measured table of {@code docs/real-databases.md}: every known-answer row run {@value
 * #RUNS} times (new keys and seed each run), plus the general random list-append workload at every
 * level for comparison (reported, not asserted), against private servers. Prints the Markdown to
 * standard output and writes it to {@code target/real-databases.md}; fails if a known-answer row
 * does not hold in some run.
 *
 * <p>Tagged {@code report}, so {@code mvn verify} leaves it out; run it with
 * {@code mvn -q -B -o -pl connectors -am test -Dtest=RealDatabasesReport
 * -Dsurefire.excludedGroups=perf -Dsurefire.failIfNoSpecifiedTests=false}.
 */
@Tag("report")
class RealDatabasesReport {
  static final int RUNS = 5;


  @Test
  void measure() throws Exception {
    List<String> lines = new ArrayList<>();
    List<String> failures = new ArrayList<>();
    try (PostgresServer pg = PostgresServer.start();
        MariaDbServer off = MariaDbServer.start(false);
        MariaDbServer on = MariaDbServer.start(true)) {
      lines.add("Servers: " + pg.version() + "; MariaDB " + off.version() + ".");
      lines.add("");
      lines.add("| database, level | scenario | sessions × keys | runs | transactions (committed + aborted) | aborted | anomalies found (runs) | known answer |");
      lines.add("|---|---|---|---|---|---|---|---|");
      List<KnownAnswer> rows = List.of(KnownAnswer.PG_READ_COMMITTED, KnownAnswer.PG_REPEATABLE_READ,
          KnownAnswer.PG_SERIALIZABLE, KnownAnswer.MARIADB_REPEATABLE_READ_SI_OFF,
          KnownAnswer.MARIADB_REPEATABLE_READ_SI_ON, KnownAnswer.MARIADB_SERIALIZABLE);
      int tag = 0;
      for (KnownAnswer row : rows) {
        lines.add(measureRow(row, urlFor(row, pg, off, on), true, tag++, failures));
      }
      for (KnownAnswer known : rows) {
        KnownAnswer row = new KnownAnswer(known.database(), known.isolation(), known.snapshotIsolation(),
            Scenario.RANDOM, 8, 4, 400, EnumSet.noneOf(Anomaly.class), EnumSet.noneOf(Anomaly.class),
            null, false);
        lines.add(measureRow(row, urlFor(row, pg, off, on), false, tag++, failures));
      }
    }
    if (!failures.isEmpty()) {
      lines.add("");
      lines.add("Runs where a known answer did not hold:");
      lines.add("");
      failures.forEach(f -> lines.add("- " + f.replace("\n", " ")));
    }
    String table = String.join("\n", lines) + "\n";
    System.out.print(table);
    Files.writeString(Path.of("target", "real-databases.md"), table, StandardCharsets.UTF_8);
    assertThat(failures).as("known-answer rows that did not hold").isEmpty();
  }

  private static String urlFor(KnownAnswer row, PostgresServer pg, MariaDbServer off, MariaDbServer on) {
    if (row.database().equals("PostgreSQL")) {
      return pg.jdbcUrl();
    }
    return Boolean.TRUE.equals(row.snapshotIsolation()) ? on.jdbcUrl() : off.jdbcUrl();
  }

  private static String measureRow(KnownAnswer row, String url, boolean asserted, int tag, List<String> failures)
      throws Exception {
    long total = 0;
    long aborted = 0;
    int held = 0;
    Map<Anomaly, Integer> found = new EnumMap<>(Anomaly.class);
    for (int run = 0; run < RUNS; run++) {
      Measurement m = Measurement.run(row, url, "report" + tag + "r" + run, 1000L * tag + run);
      total += m.result().total();
      aborted += m.result().aborted();
      m.found().forEach(a -> found.merge(a, 1, Integer::sum));
      if (asserted) {
        try {
          KnownAnswerAssert.holds(row, m);
          held++;
        } catch (AssertionError e) {
          failures.add("run " + run + " (seed " + (1000L * tag + run) + "): " + e.getMessage()
              + "; verdict at " + row.forbiddenLevel() + ": " + (m.forbidden() == null ? null : m.forbidden().verdict())
              + "; axiomatic read committed: " + m.readCommitted().verdict() + " "
              + m.readCommitted().violations().stream().map(v -> v.anomaly().id()).toList());
        }
      }
    }
    String anomalies = found.isEmpty() ? "none"
        : found.entrySet().stream().map(e -> e.getKey().id() + " (" + e.getValue() + "/" + RUNS + ")")
            .collect(Collectors.joining(", "));
    String level = row.label().substring(row.database().length() + 1);
    return "| " + row.database() + ", " + level + " | " + row.scenario() + " | " + row.sessions() + " × "
        + row.keys() + " | " + RUNS + " | " + total + " | " + aborted + " | " + anomalies + " | "
        + (asserted ? "holds in " + held + "/" + RUNS : "(not asserted)") + " |";
  }

}
