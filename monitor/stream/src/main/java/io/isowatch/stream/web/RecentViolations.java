package io.isowatch.stream.web;

import io.isowatch.checker.level.Level;
import io.isowatch.report.WitnessViews;
import io.isowatch.schemas.Violation;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The most recent violations read from the violations topic, kept in memory for the violations
 * page: at most {@link #capacity()} (default {@value #DEFAULT_CAPACITY}), the oldest read dropped
 * first. A violation read again (same stable id, e.g. re-read after a restart) replaces the copy held
 * and counts as the newest. Thread-safe: the violation feed's thread adds, the HTTP thread reads.
 */
public final class RecentViolations {
  /** Violations kept by default. */
  public static final int DEFAULT_CAPACITY = 1000;

  /**
   * Which violations to list; a {@code null} field matches every value.
   *
   * @param history the historyId, exactly
   * @param level the weakest level broken, command-line name (e.g. {@code serializable})
   * @param anomaly the anomaly id (e.g. {@code G2-item})
   */
  public record Filter(String history, String level, String anomaly) {
    /** Matches every violation. */
    public static final Filter ALL = new Filter(null, null, null);

    /** @return whether {@code v} passes */
    public boolean matches(Violation v) {
      return (history == null || history.equals(v.getHistoryId()))
          && (level == null || level.equals(WitnessViews.level(v)))
          && (anomaly == null || anomaly.equals(v.getAnomaly()));
    }
  }

  private final int capacity;
  private final LinkedHashMap<String, Violation> byId = new LinkedHashMap<>();
  private long received;

  /** @param capacity the most violations kept, at least 1 */
  public RecentViolations(int capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException("capacity must be at least 1, not " + capacity);
    }
    this.capacity = capacity;
  }

  /** @return the most violations kept */
  public int capacity() {
    return capacity;
  }

  /** Keeps {@code v} as the newest, dropping the oldest when full. */
  public synchronized void add(Violation v) {
    String id = v.getViolationId();
    byId.remove(id);
    byId.put(id, v);
    received++;
    if (byId.size() > capacity) {
      Iterator<String> oldest = byId.keySet().iterator();
      oldest.next();
      oldest.remove();
    }
  }

  /** @return how many violations were added since start, repeats included */
  public synchronized long received() {
    return received;
  }

  /** @return how many are kept now */
  public synchronized int size() {
    return byId.size();
  }

  /** @return the kept violations that pass {@code filter}, newest first */
  public synchronized List<Violation> newestFirst(Filter filter) {
    List<Violation> out = new ArrayList<>();
    for (Violation v : byId.values()) {
      if (filter.matches(v)) {
        out.add(v);
      }
    }
    Collections.reverse(out);
    return out;
  }

  /** @return the kept violation with this id */
  public synchronized Optional<Violation> get(String violationId) {
    return Optional.ofNullable(byId.get(violationId));
  }

  /** @return the historyIds of the kept violations, sorted */
  public synchronized Set<String> histories() {
    Set<String> out = new TreeSet<>();
    byId.values().forEach(v -> out.add(v.getHistoryId()));
    return out;
  }

  /** @return the anomaly ids of the kept violations, sorted */
  public synchronized Set<String> anomalies() {
    Set<String> out = new TreeSet<>();
    byId.values().forEach(v -> out.add(v.getAnomaly()));
    return out;
  }

  /** @return the levels broken by the kept violations, command-line names, weakest first */
  public synchronized Set<String> levels() {
    Set<Level> seen = new TreeSet<>();
    byId.values().forEach(v -> seen.add(Level.valueOf(v.getLevel().name())));
    Set<String> out = new java.util.LinkedHashSet<>();
    seen.forEach(l -> out.add(l.cliName()));
    return out;
  }
}
