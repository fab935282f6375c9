package io.isowatch.connectors.probe;

import java.time.Duration;
import java.util.Objects;

/**
 * What one probe run does.
 *
 * @param jdbcUrl the database, e.g. {@code jdbc:postgresql://localhost:5432/app}
 * @param user the user, or null to take it from the URL
 * @param password the password, or null
 * @param isolation the level every session asks for
 * @param workload list-append or rw-register
 * @param scenario the transaction shapes ({@link Scenario#RANDOM} for the general workload)
 * @param sessions concurrent sessions, one JDBC connection and one thread each, {@code >= 1}
 * @param keys distinct keys, {@code >= scenario.minKeys()}; fewer keys, more contention
 * @param transactions stop after this many committed transactions in all, or 0 for no such bound
 * @param duration stop starting transactions after this long, or null for no such bound; at least
 *     one of {@code transactions} and {@code duration} must bound the run
 * @param historyId the history (monitored database) the records belong to
 * @param runTag distinguishes this run's keys and sessions from earlier runs' in the same tables
 *     and history: keys are {@code runTag-k<i>}, sessions {@code runTag-s<i>}; letters, digits,
 *     {@code _} and {@code -} only, at most 40 characters
 * @param seed seeds the sessions' random choices (session {@code i} uses {@code seed + i})
 */
public record ProbeConfig(
    String jdbcUrl,
    String user,
    String password,
    ProbeIsolation isolation,
    ProbeWorkload workload,
    Scenario scenario,
    int sessions,
    int keys,
    long transactions,
    Duration duration,
    String historyId,
    String runTag,
    long seed) {

  /**
   * Validates the values.
   *
   * @throws IllegalArgumentException naming the bad value and what is accepted
   * @throws NullPointerException if a required value is null
   */
  public ProbeConfig {
    Objects.requireNonNull(jdbcUrl, "jdbcUrl");
    Objects.requireNonNull(isolation, "isolation");
    Objects.requireNonNull(workload, "workload");
    Objects.requireNonNull(scenario, "scenario");
    Objects.requireNonNull(historyId, "historyId");
    Objects.requireNonNull(runTag, "runTag");
    if (sessions < 1) {
      throw new IllegalArgumentException("sessions must be at least 1, not " + sessions);
    }
    if (keys < scenario.minKeys()) {
      throw new IllegalArgumentException("scenario " + scenario + " needs at least "
          + scenario.minKeys() + " keys, not " + keys);
    }
    if (transactions < 0) {
      throw new IllegalArgumentException("transactions must be 0 (no bound) or positive, not " + transactions);
    }
    if (duration != null && (duration.isNegative() || duration.isZero())) {
      throw new IllegalArgumentException("duration must be positive, not " + duration);
    }
    if (transactions == 0 && duration == null) {
      throw new IllegalArgumentException("bound the run with a number of transactions or a duration");
    }
    if (!runTag.matches("[A-Za-z0-9_-]{1,40}")) {
      throw new IllegalArgumentException("run tag '" + runTag
          + "' must be 1 to 40 letters, digits, '_' or '-'");
    }
  }

  /** @return the database key (and history key) of key number {@code i} */
  public String keyName(int i) {
    return runTag + "-k" + i;
  }

  /** @return the session id of session number {@code i} */
  public String sessionName(int i) {
    return runTag + "-s" + i;
  }
}
