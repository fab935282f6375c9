package io.isowatch.enginesim.engine;

import static io.isowatch.checker.history.TxnStatus.ABORTED;
import static io.isowatch.checker.history.TxnStatus.COMMITTED;
import static io.isowatch.checker.level.Level.READ_COMMITTED;
import static io.isowatch.checker.level.Level.READ_UNCOMMITTED;
import static io.isowatch.checker.level.Level.SERIALIZABLE;
import static io.isowatch.checker.level.Level.SNAPSHOT_ISOLATION;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.isowatch.checker.Checkers;
import io.isowatch.checker.history.History;
import io.isowatch.checker.level.Anomaly;
import io.isowatch.checker.level.Level;
import io.isowatch.checker.witness.CheckResult;
import io.isowatch.checker.witness.Violation;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The textbook scenarios at each level of {@link MvccEngine}, hand-scheduled, with the exact values
 * read and commit answers (Berenson et al., "A critique of ANSI SQL isolation levels", SIGMOD 1995,
 * §3: P1 dirty read, P2 non-repeatable read, P4 lost update, A5B write skew; Fekete, O'Neil &amp;
 * O'Neil, "A read-only transaction anomaly under snapshot isolation", SIGMOD Record 2004).
 */
class MvccLevelsTest {
  private static Recorder at(Level level) {
    return new Recorder(new MvccEngine(level, Set.of()));
  }

  private static List<Anomaly> anomalies(CheckResult r) {
    return r.violations().stream().map(Violation::anomaly).toList();
  }

  @Test
  void dirtyReadSeenAtReadUncommittedOnly() {
    for (Level level : List.of(READ_UNCOMMITTED, READ_COMMITTED, SNAPSHOT_ISOLATION, SERIALIZABLE)) {
      Recorder r = at(level);
      Recorder.Tx t1 = r.begin("a");
      t1.write("x", 1);
      t1.append("l", 7);
      Recorder.Tx t2 = r.begin("b");
      long x = t2.read("x");
      long[] l = t2.readList("l");
      t1.abort();
      assertThat(t2.commit()).isEqualTo(COMMITTED);

      boolean ru = level == READ_UNCOMMITTED;
      assertThat(x).as("%s", level).isEqualTo(ru ? 1 : History.NIL);
      assertThat(l).as("%s", level).containsExactly(ru ? new long[] {7} : new long[0]);
      // the checker agrees: reading an aborted write is G1a, which only read uncommitted allows
      assertThat(anomalies(Checkers.adya(READ_COMMITTED, true).check(r.history())))
          .as("%s", level).isEqualTo(ru ? List.of(Anomaly.ABORTED_READ, Anomaly.ABORTED_READ) : List.of());
    }
  }

  @Test
  void readUncommittedSeesTheMostRecentBufferedWrite() {
    Recorder r = at(READ_UNCOMMITTED);
    Recorder.Tx t1 = r.begin("a");
    Recorder.Tx t2 = r.begin("b");
    Recorder.Tx t3 = r.begin("c");
    t1.write("x", 1);
    t2.write("x", 2);
    assertThat(t3.read("x")).isEqualTo(2);
    t1.write("x", 3);
    assertThat(t3.read("x")).isEqualTo(3);
    assertThat(t1.commit()).isEqualTo(COMMITTED);
    assertThat(t3.read("x")).isEqualTo(2); // t2's buffered write is now the most recent uncommitted one
    t2.abort();
    assertThat(t3.read("x")).isEqualTo(3);
  }

  @Test
  void nonRepeatableReadAtReadCommittedNotUnderASnapshot() {
    for (Level level : List.of(READ_UNCOMMITTED, READ_COMMITTED, SNAPSHOT_ISOLATION, SERIALIZABLE)) {
      Recorder r = at(level);
      Recorder.Tx t2 = r.begin("b");
      long first = t2.read("x");
      Recorder.Tx t1 = r.begin("a");
      t1.write("x", 1);
      assertThat(t1.commit()).isEqualTo(COMMITTED);
      long second = t2.read("x");

      assertThat(t2.commit()).as("%s", level).isEqualTo(COMMITTED);
      assertThat(first).isEqualTo(History.NIL);
      assertThat(second).as("%s", level).isEqualTo(level.atLeast(SNAPSHOT_ISOLATION) ? History.NIL : 1);
    }
  }

  /**
   * Registers (P4): both read x, both write it, one commits, then the other. Read uncommitted and
   * read committed commit both (the last committer's value is the newest version); snapshot
   * isolation and serializable doom the second writer at its write (first updater wins).
   */
  @Test
  void lostUpdateOfARegister() {
    for (Level level : List.of(READ_UNCOMMITTED, READ_COMMITTED, SNAPSHOT_ISOLATION, SERIALIZABLE)) {
      MvccEngine e = new MvccEngine(level, Set.of());
      Recorder r = new Recorder(e);
      Recorder.Tx t1 = r.begin("a");
      Recorder.Tx t2 = r.begin("b");
      assertThat(t1.read("x")).isEqualTo(History.NIL);
      assertThat(t2.read("x")).isEqualTo(History.NIL);
      t1.write("x", 1);
      assertThat(t1.commit()).as("%s", level).isEqualTo(COMMITTED);
      t2.write("x", 2);

      boolean si = level.atLeast(SNAPSHOT_ISOLATION);
      assertThat(t2.commit()).as("%s", level).isEqualTo(si ? ABORTED : COMMITTED);
      assertThat(e.versions(0)).as("%s", level).containsExactly(si ? new long[] {1} : new long[] {1, 2});
    }
  }

  /** Two concurrent writers of one register, neither committed yet: at snapshot isolation the second is doomed. */
  @Test
  void theSecondConcurrentWriterIsDoomedUnderSnapshots() {
    for (Level level : List.of(READ_UNCOMMITTED, READ_COMMITTED, SNAPSHOT_ISOLATION, SERIALIZABLE)) {
      MvccEngine e = new MvccEngine(level, Set.of());
      int t1 = e.begin(0);
      int t2 = e.begin(1);
      e.write(t1, 0, 1);
      e.write(t2, 0, 2);

      boolean si = level.atLeast(SNAPSHOT_ISOLATION);
      assertThat(e.commit(t2)).as("%s", level).isEqualTo(si ? ABORTED : COMMITTED);
      assertThat(e.commit(t1)).as("%s", level).isEqualTo(COMMITTED);
      assertThat(e.versions(0)).as("%s", level).containsExactly(si ? new long[] {1} : new long[] {2, 1});
    }
  }

  /**
   * Lists, the textbook order (both read, one appends and commits, then the other appends): every
   * level refuses the second appender (see {@link MvccEngine} on lost updates): at read
   * uncommitted and read committed because the list changed since it read it, at snapshot isolation
   * and serializable by first updater wins. So the list stays {@code [1]} and the checker finds no
   * lost update.
   */
  @Test
  void lostUpdateOfAList() {
    for (Level level : List.of(READ_UNCOMMITTED, READ_COMMITTED, SNAPSHOT_ISOLATION, SERIALIZABLE)) {
      MvccEngine e = new MvccEngine(level, Set.of());
      Recorder r = new Recorder(e);
      Recorder.Tx t1 = r.begin("a");
      Recorder.Tx t2 = r.begin("b");
      assertThat(t1.readList("x")).isEmpty();
      assertThat(t2.readList("x")).isEmpty();
      t1.append("x", 1);
      assertThat(t1.commit()).isEqualTo(COMMITTED);
      t2.append("x", 2);
      assertThat(t2.readList("x")).as("%s", level).containsExactly(2L);

      assertThat(t2.commit()).as("%s", level).isEqualTo(ABORTED);
      assertThat(e.committedList(0)).as("%s", level).containsExactly(1L);
      assertThat(anomalies(Checkers.adya(SERIALIZABLE, true).check(r.history()))).as("%s", level).isEmpty();
    }
  }

  /** Read committed: a list read is repeatable within a transaction, a register read is not. */
  @Test
  void readCommittedListsAreReadStableRegistersAreNot() {
    Recorder r = at(READ_COMMITTED);
    Recorder.Tx t2 = r.begin("b");
    assertThat(t2.readList("l")).isEmpty();
    assertThat(t2.read("x")).isEqualTo(History.NIL);
    Recorder.Tx t1 = r.begin("a");
    t1.append("l", 1);
    t1.write("x", 1);
    t1.append("m", 1);
    assertThat(t1.commit()).isEqualTo(COMMITTED);
    assertThat(t2.readList("l")).isEmpty();
    assertThat(t2.read("x")).isEqualTo(1);
    assertThat(t2.readList("m")).containsExactly(1L); // first read of m: the latest committed (read skew with l)
    assertThat(t2.commit()).isEqualTo(COMMITTED);
    assertThat(anomalies(Checkers.adya(SNAPSHOT_ISOLATION, true).check(r.history())))
        .isEqualTo(List.of(Anomaly.INTERNAL, Anomaly.G_SINGLE));
  }

  /** Read uncommitted and read committed: a second concurrent appender is doomed by the list lock. */
  @ParameterizedTest
  @EnumSource(value = Level.class, names = {"READ_UNCOMMITTED", "READ_COMMITTED"})
  void aSecondConcurrentAppenderIsRefused(Level level) {
    MvccEngine e = new MvccEngine(level, Set.of());
    Recorder r = new Recorder(e);
    Recorder.Tx t1 = r.begin("a");
    Recorder.Tx t2 = r.begin("b");
    t1.append("x", 1);
    t2.append("x", 2);
    assertThat(t2.readList("x")).containsExactly(level == READ_UNCOMMITTED ? new long[] {1, 2} : new long[] {2});
    assertThat(t2.commit()).isEqualTo(ABORTED);
    assertThat(t1.commit()).isEqualTo(COMMITTED);
    Recorder.Tx t3 = r.begin("b");
    t3.append("x", 3);
    assertThat(t3.readList("x")).containsExactly(1L, 3L);
    assertThat(t3.commit()).isEqualTo(COMMITTED);
    assertThat(e.committedList(0)).containsExactly(1L, 3L);
  }

  /**
   * Write skew (A5B): each reads both keys and appends to a different one. Snapshot isolation
   * commits both (the checker finds G2-item); serializable refuses the first to commit, a pivot
   * with an rw edge each way, and then commits the other, whose edges led only to the aborted one.
   */
  @Test
  void writeSkew() {
    for (Level level : List.of(SNAPSHOT_ISOLATION, SERIALIZABLE)) {
      Recorder r = at(level);
      Recorder.Tx t1 = r.begin("a");
      Recorder.Tx t2 = r.begin("b");
      assertThat(t1.readList("x")).isEmpty();
      assertThat(t1.readList("y")).isEmpty();
      assertThat(t2.readList("x")).isEmpty();
      assertThat(t2.readList("y")).isEmpty();
      t1.append("x", 1);
      t2.append("y", 2);

      boolean ser = level == SERIALIZABLE;
      assertThat(t1.commit()).as("%s", level).isEqualTo(ser ? ABORTED : COMMITTED);
      assertThat(t2.commit()).as("%s", level).isEqualTo(COMMITTED);
      Recorder.Tx t3 = r.begin("c");
      assertThat(t3.readList("x")).containsExactly(ser ? new long[0] : new long[] {1});
      assertThat(t3.readList("y")).containsExactly(2L);
      t3.commit();
      assertThat(anomalies(Checkers.adya(SERIALIZABLE, true).check(r.history())))
          .as("%s", level).isEqualTo(ser ? List.of() : List.of(Anomaly.G2_ITEM));
    }
  }

  /** Write skew when the first commits before the second writes: serializable refuses the second. */
  @Test
  void writeSkewAfterTheFirstCommitted() {
    Recorder r = at(SERIALIZABLE);
    Recorder.Tx t1 = r.begin("a");
    Recorder.Tx t2 = r.begin("b");
    t1.read("x");
    t1.read("y");
    t2.read("x");
    t2.read("y");
    t1.write("x", 1);
    assertThat(t1.commit()).isEqualTo(COMMITTED);
    t2.write("y", 2); // would make the committed t1 a pivot: t2 -rw-> t1 -rw-> t2
    assertThat(t2.commit()).isEqualTo(ABORTED);
  }

  /**
   * The read-only anomaly (Fekete, O'Neil &amp; O'Neil 2004): T2 withdraws from checking x after
   * reading x and savings y; T1 deposits into y and commits; the read-only T3 then sees T1's
   * deposit but not T2's withdrawal. Snapshot isolation commits all three (a cycle T3 -rw-> T2 -rw->
   * T1 -wr-> T3, G2-item); serializable refuses T2, the pivot, whose incoming edge comes from the
   * committed read-only T3 (Cahill et al. 2008 §3).
   */
  @Test
  void readOnlyAnomaly() {
    for (Level level : List.of(SNAPSHOT_ISOLATION, SERIALIZABLE)) {
      Recorder r = at(level);
      Recorder.Tx withdraw = r.begin("s2");
      assertThat(withdraw.readList("x")).isEmpty();
      assertThat(withdraw.readList("y")).isEmpty();
      Recorder.Tx deposit = r.begin("s1");
      assertThat(deposit.readList("y")).isEmpty();
      deposit.append("y", 20);
      assertThat(deposit.commit()).isEqualTo(COMMITTED);
      Recorder.Tx report = r.begin("s3");
      assertThat(report.readList("x")).isEmpty();
      assertThat(report.readList("y")).containsExactly(20L);
      assertThat(report.commit()).isEqualTo(COMMITTED);
      withdraw.append("x", -11);

      boolean ser = level == SERIALIZABLE;
      assertThat(withdraw.commit()).as("%s", level).isEqualTo(ser ? ABORTED : COMMITTED);
      assertThat(anomalies(Checkers.adya(SERIALIZABLE, false).check(r.history())))
          .as("%s", level).isEqualTo(ser ? List.of() : List.of(Anomaly.G2_ITEM));
    }
  }

  @Test
  void snapshotIsolationReadsTheSnapshotPlusItsOwnAppends() {
    Recorder r = at(SNAPSHOT_ISOLATION);
    Recorder.Tx t0 = r.begin("a");
    t0.append("x", 1);
    t0.commit();
    Recorder.Tx t1 = r.begin("a");
    Recorder.Tx t2 = r.begin("b");
    t2.append("y", 5);
    t2.commit();
    t1.append("x", 2);
    t1.append("x", 3);
    assertThat(t1.readList("x")).containsExactly(1L, 2L, 3L);
    assertThat(t1.readList("y")).isEmpty();
    assertThat(t1.commit()).isEqualTo(COMMITTED);
  }

  @Test
  void theFactoryBuildsEachLevel() {
    for (Level level : Level.values()) {
      assertThat(Engines.create(level).level()).isEqualTo(level);
    }
    assertThat(Engines.create(READ_COMMITTED)).isInstanceOf(MvccEngine.class);
  }

  @Test
  void faultsThatChangeNothingAreRefused() {
    assertThatThrownBy(() -> Engines.create(READ_COMMITTED, EngineOptions.DEFAULT.with(Fault.LOST_UPDATE)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("fault LOST_UPDATE changes nothing at read-committed, which allows lost updates");
    assertThatThrownBy(() -> new MvccEngine(Level.CAUSAL, Set.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("causal is a replicated store, not an MVCC engine level");
  }

  @Test
  void operationsOnAnEndedTransactionAreRefused() {
    MvccEngine e = new MvccEngine(SERIALIZABLE, Set.of());
    int t = e.begin(0);
    e.abort(t);

    assertThatThrownBy(() -> e.readList(t, 0))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("transaction 0 is not active");
    assertThatThrownBy(() -> e.append(3, 0, 1))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("transaction 3 is not active");
  }

}
