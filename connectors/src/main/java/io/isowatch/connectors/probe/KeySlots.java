package io.isowatch.connectors.probe;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.util.List;

/**
 * The physical keys behind the logical keys (slots {@code 0 .. keys-1}) that a {@link Scenario}
 * names, and their rotation: on list-append, a slot's key is retired after {@link
 * ProbeConfig#maxAppendsPerKey()} appends and the slot moves to a fresh key, as Elle's list-append
 * generator does with {@code :max-writes-per-key} (Kingsbury &amp; Alvaro, VLDB 2020; Jepsen's
 * {@code elle.list-append}). Without it a run on few keys appends to the same lists for its whole
 * length and every read returns the whole ever-growing list.
 *
 * <p>The rule. Each attempt of a transaction (a retry is a new attempt) resolves its plan here,
 * once, before its first statement: every step on slot {@code i} gets the slot's current key, so
 * the reads and the writes of one attempt on one slot are on the same key (a write-skew or
 * lost-update attempt reads the very key it then appends to). Resolving reserves the attempt's
 * appends: a slot whose current key already has appends reserved and cannot take all of the
 * attempt's appends to it within the bound first moves to its next generation, whose key is
 * inserted at its initial value ({@code ""}, autocommitted, as the run's first keys are) before any
 * attempt is given it. Reservation is under one lock, so the bound holds under any concurrency:
 * every physical key gets at most {@code maxAppendsPerKey} appends in the history, counting those
 * of aborted and unknown transactions, hence every list read holds at most that many elements;
 * the one exception is an attempt that appends more often than the bound to one key (only {@link
 * Scenario#RANDOM}, at most 4 appends, with a bound below 4), which gets a fresh key to itself.
 * Reads never rotate a slot. Two concurrent attempts on a slot meet on the same key unless a
 * rotation fell between their starts, so the scenarios' conflicts still happen, only not across
 * that boundary.
 *
 * <p>The rw-register workload never rotates: a register holds one value however often it is
 * written. Thread-safe; the insert connection is used only under the lock.
 */
final class KeySlots {
  private final ProbeConfig config;
  private final Dialect dialect;
  private final boolean list;
  private final PreparedStatement insert;
  /** Per slot: its current generation, and the appends reserved on that generation's key. */
  private final int[] generation;
  private final int[] appends;

  /**
   * Inserts every slot's first key at its initial value (an empty list, a NULL register), before the
   * sessions start. Without this, sessions race to insert absent keys, and on MariaDB 10.11 at
   * SERIALIZABLE such a race was seen to livelock: one INSERT waited for 22 minutes (past
   * innodb_lock_wait_timeout) while the others deadlocked on the gap locks of their reads
   * (docs/real-databases.md). Fresh keys of later generations are inserted the same way, before any
   * session reads or writes them.
   *
   * @param config the run
   * @param dialect the database's SQL
   * @param autocommitted a connection in autocommit mode, open for the whole run, used only here
   * @throws SQLException if an insert fails other than as an abort (a key already present is left)
   */
  KeySlots(ProbeConfig config, Dialect dialect, Connection autocommitted) throws SQLException {
    this.config = config;
    this.dialect = dialect;
    this.list = config.workload() == ProbeWorkload.LIST_APPEND;
    this.insert = autocommitted.prepareStatement(
        dialect.insertSql(list ? Dialect.LIST_TABLE : Dialect.REGISTER_TABLE));
    this.generation = new int[config.keys()];
    this.appends = new int[config.keys()];
    for (int k = 0; k < config.keys(); k++) {
      insertInitial(config.keyName(k, 0));
    }
  }

  /**
   * Resolves one attempt's plan to physical keys, reserving its appends (the class comment's rule).
   *
   * @param plan the attempt's steps
   * @return the physical key of each step, in the plan's order
   * @throws SQLException if inserting a fresh key fails other than as an abort
   */
  synchronized String[] resolve(List<Scenario.Step> plan) throws SQLException {
    String[] keys = new String[plan.size()];
    for (int s = 0; s < keys.length; s++) {
      int slot = plan.get(s).key();
      int first = firstStepOn(plan, slot);
      if (first < s) {
        keys[s] = keys[first];
        continue;
      }
      int writes = 0;
      for (int t = s; t < keys.length; t++) {
        writes += plan.get(t).write() && plan.get(t).key() == slot ? 1 : 0;
      }
      if (list && writes > 0 && appends[slot] > 0 && appends[slot] + writes > config.maxAppendsPerKey()) {
        generation[slot]++;
        appends[slot] = 0;
        insertInitial(config.keyName(slot, generation[slot]));
      }
      if (list) {
        appends[slot] += writes;
      }
      keys[s] = config.keyName(slot, generation[slot]);
    }
    return keys;
  }

  private static int firstStepOn(List<Scenario.Step> plan, int slot) {
    int s = 0;
    while (plan.get(s).key() != slot) {
      s++;
    }
    return s;
  }

  /** One autocommitted insert; a key already present (an earlier run's, same tag) is left as it is. */
  private void insertInitial(String key) throws SQLException {
    insert.setString(1, key);
    if (list) {
      insert.setString(2, "");
    } else {
      insert.setNull(2, Types.BIGINT);
    }
    try {
      insert.executeUpdate();
    } catch (SQLException e) {
      if (!dialect.isAbort(e)) {
        throw e;
      }
    }
  }
}
