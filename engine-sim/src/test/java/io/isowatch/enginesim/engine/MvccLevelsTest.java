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
      assertThat(l).as("%s", level).isEmpty(); // lists never show uncommitted appends
      // the checker agrees: reading an aborted write is G1a, which only read uncommitted allows
      assertThat(anomalies(Checkers.adya(READ_COMMITTED, true).check(r.history())))
          .as("%s", level).isEqualTo(ru ? List.of(Anomaly.ABORTED_READ) : List.of());
    }
  }

  /** Read uncommitted: the most recent buffered write, fixed for the reader at its first read. */
  @Test
  void readUncommittedSeesTheMostRecentBufferedWrite() {
    Recorder r = at(READ_UNCOMMITTED);
    Recorder.Tx t1 = r.begin("a");
    Recorder.Tx t2 = r.begin("b");
    t1.write("x", 1);
    t2.write("x", 2);
    Recorder.Tx t3 = r.begin("c");
    assertThat(t3.read("x")).isEqualTo(2);
    t1.write("x", 3);
    assertThat(t3.read("x")).isEqualTo(2); // repeatable
    t3.commit();
    Recorder.Tx t4 = r.begin("c");
    assertThat(t4.read("x")).isEqualTo(3);
    t4.commit();
    assertThat(t1.commit()).isEqualTo(COMMITTED);
    Recorder.Tx t5 = r.begin("c");
    assertThat(t5.read("x")).isEqualTo(2); // t2's buffered write is now the most recent uncommitted one
    t5.commit();
    t2.abort();
    Recorder.Tx t6 = r.begin("c");
    assertThat(t6.read("x")).isEqualTo(3);
    t6.commit();
    // t3's two reads and t5's read saw t2's write, which aborted; t4 read t1's last write, which committed
    assertThat(anomalies(Checkers.adya(READ_COMMITTED, true).check(r.history())))
        .isEqualTo(List.of(Anomaly.ABORTED_READ, Anomaly.ABORTED_READ, Anomaly.ABORTED_READ));
  }

  @Test
  void nonRepeatableReadAtReadCommittedOnly() {
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
      // read uncommitted's register reads are repeatable (LevelPolicy.stableRegisters)
      assertThat(second).as("%s", level).isEqualTo(level == READ_COMMITTED ? 1 : History.NIL);
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
   * Lists, the textbook order (both read, one appends and commits, then the other appends). Read
   * committed commits both: the second append lands on the list the first installed, so the list is
   * {@code [1, 2]} and the checker reports the lost update (both read {@code []} before appending),
   * the non-repeatable read of the second reading {@code [1, 2]} after reading {@code []} and
   * appending 2 (the 1 is not its own), and G-single (it read {@code []} before the first's append, which precedes its own). Read uncommitted dooms the second appender (its list changed since it read it);
   * snapshot isolation and serializable doom it by first updater wins.
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
      boolean rc = level == READ_COMMITTED;
      assertThat(t2.readList("x")).as("%s", level).containsExactly(rc ? new long[] {1, 2} : new long[] {2});

      assertThat(t2.commit()).as("%s", level).isEqualTo(rc ? COMMITTED : ABORTED);
      assertThat(e.committedList(0)).as("%s", level).containsExactly(rc ? new long[] {1, 2} : new long[] {1});
      assertThat(anomalies(Checkers.adya(SERIALIZABLE, true).check(r.history()))).as("%s", level)
          .isEqualTo(rc ? List.of(Anomaly.NON_REPEATABLE_READ, Anomaly.LOST_UPDATE, Anomaly.G_SINGLE) : List.of());
    }
  }

  /** Read committed: a second read of a register or a list may see a newer commit. */
  @Test
  void readCommittedReadsAreNotRepeatable() {
    Recorder r = at(READ_COMMITTED);
    Recorder.Tx t2 = r.begin("b");
    assertThat(t2.readList("l")).isEmpty();
    assertThat(t2.read("x")).isEqualTo(History.NIL);
    Recorder.Tx t1 = r.begin("a");
    t1.append("l", 1);
    t1.write("x", 1);
    assertThat(t1.commit()).isEqualTo(COMMITTED);
    assertThat(t2.readList("l")).containsExactly(1L);
    assertThat(t2.read("x")).isEqualTo(1);
    assertThat(t2.commit()).isEqualTo(COMMITTED);
    // read committed allows it; read atomic forbids it
    assertThat(Checkers.forLevel(READ_COMMITTED).check(r.history()).violations()).isEmpty();
    assertThat(anomalies(Checkers.forLevel(Level.READ_ATOMIC).check(r.history()))).isEqualTo(List.of(
        Anomaly.NON_REPEATABLE_READ, Anomaly.NON_REPEATABLE_READ, Anomaly.COMMIT_ORDER_CYCLE));
  }

  /** Read uncommitted: the first read of an object fixes it for the transaction. */
  @Test
  void readUncommittedReadsAreRepeatable() {
    Recorder r = at(READ_UNCOMMITTED);
    Recorder.Tx t2 = r.begin("b");
    assertThat(t2.readList("l")).isEmpty();
    assertThat(t2.read("x")).isEqualTo(History.NIL);
    Recorder.Tx t1 = r.begin("a");
    t1.append("l", 1);
    t1.write("x", 1);
    assertThat(t1.commit()).isEqualTo(COMMITTED);
    assertThat(t2.readList("l")).isEmpty();
    assertThat(t2.read("x")).isEqualTo(History.NIL);
    assertThat(t2.readList("m")).isEmpty();
    t2.append("m", 5);
    assertThat(t2.readList("m")).containsExactly(5L);
    assertThat(t2.commit()).isEqualTo(COMMITTED);
    assertThat(anomalies(Checkers.adya(READ_UNCOMMITTED, true).check(r.history()))).isEmpty();
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
    assertThat(t2.readList("x")).containsExactly(2L);
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
    assertThatThrownBy(() -> Engines.create(SERIALIZABLE, EngineOptions.DEFAULT.with(Fault.LOST_UPDATE)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("fault LOST_UPDATE changes nothing visible at serializable: SSI refuses the read-then-write schedules too");
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
