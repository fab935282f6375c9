package io.isowatch.enginesim.engine;

import io.isowatch.checker.level.Level;

/**
 * Everything that differs between the four levels of {@link MvccEngine}, in one table.
 *
 * <table>
 *   <caption>The levels</caption>
 *   <tr><th>level</th><th>dirtyReads</th><th>repeatableReads</th><th>listLocks</th>
 *       <th>snapshotAtBegin</th><th>firstUpdaterWins</th><th>ssi</th></tr>
 *   <tr><td>read uncommitted</td><td>yes</td><td>yes</td><td>yes</td><td>no</td><td>no</td><td>no</td></tr>
 *   <tr><td>read committed</td><td>no</td><td>no</td><td>yes</td><td>no</td><td>no</td><td>no</td></tr>
 *   <tr><td>snapshot isolation</td><td>no</td><td>no</td><td>no</td><td>yes</td><td>yes</td><td>no</td></tr>
 *   <tr><td>serializable</td><td>no</td><td>no</td><td>no</td><td>yes</td><td>yes</td><td>yes</td></tr>
 * </table>
 *
 * @param dirtyReads a register read of a key another active transaction has written sees that
 *     buffered write (the most recent one) rather than the latest committed version (read
 *     uncommitted; Berenson et al., SIGMOD 1995, §2.3). Lists show no uncommitted appends: a list
 *     read that included the appends of a transaction that later aborts would not be a prefix of the
 *     list's later versions (Elle's incompatible order, which no level allows)
 * @param repeatableReads the first read of an object fixes what the transaction sees of it: a
 *     register keeps the value read until the transaction writes it, a list keeps the list read,
 *     followed by the transaction's own appends; and an append to a list that changed since the
 *     transaction read it dooms the transaction. Read uncommitted needs this because the checker of
 *     its rung (Adya's PL-1 on Elle's reading) forbids a read that disagrees with the transaction's
 *     own earlier reads and writes (Elle's internal anomaly) at every level; read committed does not
 *     have it, as its axiomatic definition allows non-repeatable reads and forbids reading older
 *     than what the transaction already saw (Biswas &amp; Enea, OOPSLA 2019, §3)
 * @param listLocks appends take a no-wait write lock per list, held until the transaction ends: a
 *     second concurrent appender is doomed instead of waiting (as a row lock of {@code UPDATE ...
 *     SET v = v || e}, minus the wait). So no list read of the lock holder shows another
 *     transaction's append in the middle of its own. Registers take no lock
 * @param snapshotAtBegin reads see the versions committed before the transaction began (snapshot
 *     isolation, Berenson et al. 1995 §4.2); otherwise each read sees the latest committed version
 *     at the time of the read
 * @param firstUpdaterWins of two concurrent transactions writing one object, only the first may
 *     commit (Berenson et al. 1995 §4.2, "First-committer-wins"; checked as PostgreSQL does, at the
 *     write, without waiting): a write of an object that a concurrent transaction already wrote
 *     (committed after the writer's snapshot, or buffered by a live active transaction) dooms the
 *     writer, and commit checks again
 * @param ssi serializable snapshot isolation: track rw-antidependencies between concurrent
 *     transactions and refuse a pivot (Cahill, Röhm &amp; Fekete, SIGMOD 2008, §3)
 */
public record LevelPolicy(
    boolean dirtyReads,
    boolean repeatableReads,
    boolean listLocks,
    boolean snapshotAtBegin,
    boolean firstUpdaterWins,
    boolean ssi) {

  /**
   * @return the policy of {@code level}
   * @throws IllegalArgumentException for read atomic and causal, which are replicated stores
   */
  public static LevelPolicy of(Level level) {
    switch (level) {
      case READ_UNCOMMITTED:
        return new LevelPolicy(true, true, true, false, false, false);
      case READ_COMMITTED:
        return new LevelPolicy(false, false, true, false, false, false);
      case SNAPSHOT_ISOLATION:
        return new LevelPolicy(false, false, false, true, true, false);
      case SERIALIZABLE:
        return new LevelPolicy(false, false, false, true, true, true);
      default:
        throw new IllegalArgumentException(level + " is a replicated store, not an MVCC engine level");
    }
  }
}
