package io.isowatch.enginesim.engine;

import io.isowatch.checker.level.Level;

/**
 * Everything that differs between the four levels of {@link MvccEngine}, in one table.
 *
 * <table>
 *   <caption>The levels</caption>
 *   <tr><th>level</th><th>dirtyReads</th><th>snapshotAtBegin</th><th>firstCommitterWins</th><th>listWriteLocks</th><th>ssi</th></tr>
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
 * @param firstCommitterWins commit refuses a transaction when a concurrent transaction committed a
 *     write to an object it writes (Berenson et al. 1995 §4.2)
 * @param listWriteLocks a list object being appended to by an active transaction cannot be appended
 *     to by another: the second appender is doomed (its commit answers aborted) instead of waiting,
 *     as a no-wait row lock; so each list version extends the previous one, as with {@code UPDATE ...
 *     SET v = v || e} under PostgreSQL's read committed. Registers take no lock.
 * @param ssi serializable snapshot isolation: track rw-antidependencies between concurrent
 *     transactions and refuse a pivot (Cahill, Röhm &amp; Fekete, SIGMOD 2008, §3)
 */
public record LevelPolicy(
    boolean dirtyReads, boolean snapshotAtBegin, boolean firstCommitterWins, boolean listWriteLocks, boolean ssi) {

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
