package io.isowatch.enginesim.engine;

import io.isowatch.checker.level.Level;

/**
 * Everything that differs between the four levels of {@link MvccEngine}, in one table.
 *
 * <table>
 *   <caption>The levels</caption>
 *   <tr><th>level</th><th>dirtyReads</th><th>snapshotAtBegin</th><th>firstUpdaterWins</th><th>stableLists</th><th>ssi</th></tr>
 *   <tr><td>read uncommitted</td><td>yes</td><td>no</td><td>no</td><td>yes</td><td>no</td></tr>
 *   <tr><td>read committed</td><td>no</td><td>no</td><td>no</td><td>yes</td><td>no</td></tr>
 *   <tr><td>snapshot isolation</td><td>no</td><td>yes</td><td>yes</td><td>no</td><td>no</td></tr>
 *   <tr><td>serializable</td><td>no</td><td>yes</td><td>yes</td><td>no</td><td>yes</td></tr>
 * </table>
 *
 * @param dirtyReads a read of an object another active transaction has written sees that buffered
 *     write (the most recent one), before the latest committed version (read uncommitted, Berenson et
 *     al., SIGMOD 1995, "Locking READ UNCOMMITTED": long write locks, no read locks)
 * @param snapshotAtBegin reads see the versions committed before the transaction began (snapshot
 *     isolation, Berenson et al. 1995 §4.2); otherwise each read sees the latest committed version
 *     at the time of the read
 * @param firstUpdaterWins of two concurrent transactions writing one object, only the first may
 *     commit (Berenson et al. 1995 §4.2, "First-committer-wins"; checked as PostgreSQL does, at the
 *     write, without waiting): a write of an object that a concurrent transaction already wrote
 *     (committed after the writer's snapshot, or buffered by a live active transaction) dooms the
 *     writer, and commit checks again
 * @param stableLists lists are read-stable within a transaction: its first read of (or append to) a
 *     list fixes the list it sees, and later reads return that list followed by its own appends;
 *     appends take a no-wait write lock per list (a second concurrent appender is doomed), and an
 *     append to a list that changed since the transaction first read it dooms the transaction. So
 *     every list version extends the one before and every list read is consistent with the
 *     transaction's own earlier reads and appends (Elle's incompatible order and internal
 *     anomalies, forbidden at every level, cannot happen), while reads of other lists and of
 *     registers still see newer commits (read skew, fractured reads). Registers take no lock.
 * @param ssi serializable snapshot isolation: track rw-antidependencies between concurrent
 *     transactions and refuse a pivot (Cahill, Röhm &amp; Fekete, SIGMOD 2008, §3)
 */
public record LevelPolicy(
    boolean dirtyReads, boolean snapshotAtBegin, boolean firstUpdaterWins, boolean stableLists, boolean ssi) {

  /**
   * @return the policy of {@code level}
   * @throws IllegalArgumentException for read atomic and causal, which are replicated stores
   */
  public static LevelPolicy of(Level level) {
    switch (level) {
      case READ_UNCOMMITTED:
        return new LevelPolicy(true, false, false, true, false);
      case READ_COMMITTED:
        return new LevelPolicy(false, false, false, true, false);
      case SNAPSHOT_ISOLATION:
        return new LevelPolicy(false, true, true, false, false);
      case SERIALIZABLE:
        return new LevelPolicy(false, true, true, false, true);
      default:
        throw new IllegalArgumentException(level + " is a replicated store, not an MVCC engine level");
    }
  }
}
