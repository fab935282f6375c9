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
 * @param keys distinct keys, {@code >= scenario.minKeys()}; fewer keys, more contention. On
 *     list-append these are logical keys (slots): each slot's physical key is retired after {@code
 *     maxAppendsPerKey} appends and replaced by a fresh one ({@link #keyName(int, int)}), so that
 *     {@code keys} keys are live at any time and no list grows past the bound
 * @param maxAppendsPerKey list-append only: the most appends the probe issues to one physical key,
 *     counted in every transaction that issues them, committed or not, {@code >= 1} (Elle's {@code
 *     :max-writes-per-key}, default {@link #DEFAULT_MAX_APPENDS_PER_KEY}); a transaction that
 *     appends more often than this to one key (only {@link Scenario#RANDOM} does, at most 4 times)
 *     gets a fresh key of its own. The rw-register workload ignores it (a register holds one value)
 * @param transactions stop after this many committed transactions in all, or 0 for no such bound
 * @param duration stop starting transactions after this long, or null for no such bound; at least
 *     one of {@code transactions} and {@code duration} must bound the run
 * @param historyId the history (monitored database) the records belong to
 * @param runTag distinguishes this run's keys and sessions from earlier runs' in the same tables
 *     and history: keys are {@code runTag-k<i>} (then {@code runTag-k<i>.<g>}), sessions {@code
 *     runTag-s<i>}; letters, digits, {@code _} and {@code -} only, at most 40 characters
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
    int maxAppendsPerKey,
    long transactions,
    Duration duration,
    String historyId,
    String runTag,
    long seed) {

  /** Elle's default {@code :max-writes-per-key} (Jepsen's {@code elle.list-append} generator). */
  public static final int DEFAULT_MAX_APPENDS_PER_KEY = 32;

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
    if (maxAppendsPerKey < 1) {
      throw new IllegalArgumentException("max appends per key must be at least 1, not " + maxAppendsPerKey);
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

  /**
   * The configuration with {@link #DEFAULT_MAX_APPENDS_PER_KEY}; the parameters are the canonical
   * constructor's.
   *
   * @throws IllegalArgumentException naming the bad value and what is accepted
   * @throws NullPointerException if a required value is null
   */
  public ProbeConfig(String jdbcUrl, String user, String password, ProbeIsolation isolation,
      ProbeWorkload workload, Scenario scenario, int sessions, int keys, long transactions,
      Duration duration, String historyId, String runTag, long seed) {
    this(jdbcUrl, user, password, isolation, workload, scenario, sessions, keys,
        DEFAULT_MAX_APPENDS_PER_KEY, transactions, duration, historyId, runTag, seed);
  }

  /**
   * @param i the slot (logical key), {@code 0 <= i < keys}
   * @param generation how many times the slot's key has been retired, {@code >= 0}
   * @return the database key (and history key): {@code runTag-k<i>} for generation 0, {@code
   *     runTag-k<i>.<generation>} after
   */
  public String keyName(int i, int generation) {
    return generation == 0 ? runTag + "-k" + i : runTag + "-k" + i + "." + generation;
  }

  /** @return the session id of session number {@code i} */
  public String sessionName(int i) {
    return runTag + "-s" + i;
  }
}
