package io.isowatch.enginesim.engine;

import static io.isowatch.checker.history.TxnStatus.COMMITTED;
import static org.assertj.core.api.Assertions.assertThat;

import io.isowatch.checker.Checker;
import io.isowatch.checker.Checkers;
import io.isowatch.checker.awdit.RaChecker;
import io.isowatch.checker.awdit.RcChecker;
import io.isowatch.checker.history.History;
import io.isowatch.checker.level.Level;
import io.isowatch.checker.witness.CheckResult;
import io.isowatch.enginesim.replica.ReplicatedStore;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Each {@link Fault} on a hand-built schedule: the values it makes visible and what the checker says. */
class FaultsTest {
  private static List<String> found(CheckResult r) {
    return r.violations().stream().map(v -> v.anomaly() + "@" + v.weakestLevelBroken()).toList();
  }

  @Test
  void fracturedVisibilityInstallsOneKeyPerDelivery() {
    MvccEngine e = new MvccEngine(Level.SNAPSHOT_ISOLATION, Set.of(Fault.FRACTURED_VISIBILITY));
    Recorder r = new Recorder(e);
    Recorder.Tx t1 = r.begin("a");
    t1.write("x", 1);
    t1.write("y", 1);
    assertThat(t1.commit()).isEqualTo(COMMITTED);
    assertThat(e.pendingDeliveries()).isEqualTo(1);
    Recorder.Tx t2 = r.begin("b");
    assertThat(t2.read("y")).isEqualTo(History.NIL);
    assertThat(t2.read("x")).isEqualTo(1);
    t2.commit();
    assertThat(e.deliver(new Scripted())).isTrue();
    assertThat(e.pendingDeliveries()).isZero();
    Recorder.Tx t3 = r.begin("b");
    assertThat(t3.read("y")).isEqualTo(1);
    t3.commit();

    // t2 read y before t1's write of it and then x from t1: a fractured read, which read committed allows
    assertThat(found(new RcChecker().check(r.history()))).isEmpty();
    assertThat(found(new RaChecker().check(r.history()))).containsExactly("commit-order-cycle@read-atomic");
  }

  @Test
  void fracturedVisibilityAtTheReadAtomicStore() {
    ReplicatedStore s = new ReplicatedStore(Level.READ_ATOMIC, 2, Set.of(Fault.FRACTURED_VISIBILITY));
    Recorder r = new Recorder(s);
    Recorder.Tx t1 = r.begin("s0");
    t1.write("x", 1);
    t1.write("y", 1);
    t1.commit();
    assertThat(s.pendingDeliveries()).isEqualTo(2);
    s.deliver(new Scripted(0));
    assertThat(s.pendingDeliveries()).isEqualTo(1);
    Recorder.Tx t2 = r.begin("s1");
    assertThat(t2.read("y")).isEqualTo(History.NIL);
    assertThat(t2.read("x")).isEqualTo(1);
    t2.commit();
    assertThat(found(new RcChecker().check(r.history()))).isEmpty();
    assertThat(found(new RaChecker().check(r.history()))).containsExactly("commit-order-cycle@read-atomic");
  }

  @Test
  void lostUpdate() {
    MvccEngine e = new MvccEngine(Level.SNAPSHOT_ISOLATION, Set.of(Fault.LOST_UPDATE));
    Recorder r = new Recorder(e);
    Recorder.Tx t1 = r.begin("a");
    Recorder.Tx t2 = r.begin("b");
    assertThat(t1.readList("x")).isEmpty();
    assertThat(t2.readList("x")).isEmpty();
    t1.append("x", 1);
    t2.append("x", 2);
    assertThat(t1.commit()).isEqualTo(COMMITTED);
    assertThat(t2.commit()).isEqualTo(COMMITTED);
    assertThat(e.committedList(0)).containsExactly(1L, 2L);
    assertThat(found(Checkers.adya(Level.SNAPSHOT_ISOLATION, true).check(r.history())))
        .containsExactly("lost-update@snapshot-isolation");
  }

  @Test
  void staleSnapshot() {
    MvccEngine e = new MvccEngine(Level.SNAPSHOT_ISOLATION, Set.of(Fault.STALE_SNAPSHOT));
    Recorder r = new Recorder(e);
    Recorder.Tx t1 = r.begin("a");
    t1.append("x", 1);
    t1.write("y", 1);
    t1.commit();
    Recorder.Tx t2 = r.begin("a");
    assertThat(t2.readList("x")).isEmpty();
    assertThat(t2.read("y")).isEqualTo(History.NIL);
    t2.commit();
    // t2 misses its own session's t1: so + rw form a cycle; read committed has no session guarantee
    assertThat(found(Checkers.adya(Level.SNAPSHOT_ISOLATION, true).check(r.history())))
        .containsExactly("G-single@snapshot-isolation");
    assertThat(found(new RaChecker().check(r.history()))).containsExactly("commit-order-cycle@read-atomic");
    assertThat(found(new RcChecker().check(r.history()))).isEmpty();
  }

  @Test
  void abortedWriteVisible() {
    MvccEngine e = new MvccEngine(Level.READ_COMMITTED, Set.of(Fault.ABORTED_WRITE_VISIBLE));
    Recorder r = new Recorder(e);
    Recorder.Tx t1 = r.begin("a");
    t1.write("x", 1);
    t1.append("l", 1);
    t1.abort();
    Recorder.Tx t2 = r.begin("b");
    assertThat(t2.read("x")).isEqualTo(1);
    assertThat(t2.readList("l")).containsExactly(1L);
    t2.commit();
    assertThat(found(new RcChecker().check(r.history())))
        .containsExactly("G1a@read-committed", "G1a@read-committed");
    assertThat(found(Checkers.adya(Level.READ_COMMITTED, true).check(r.history())))
        .containsExactly("G1a@read-committed", "G1a@read-committed");
  }

  @Test
  void abortedWriteVisibleAtTheCausalStore() {
    ReplicatedStore s = new ReplicatedStore(Level.CAUSAL, 2, Set.of(Fault.ABORTED_WRITE_VISIBLE));
    Recorder r = new Recorder(s);
    Recorder.Tx t1 = r.begin("s0");
    t1.write("x", 1);
    t1.abort();
    s.deliver(new Scripted(0));
    Recorder.Tx t2 = r.begin("s1");
    assertThat(t2.read("x")).isEqualTo(1);
    t2.commit();
    assertThat(found(new RcChecker().check(r.history()))).containsExactly("G1a@read-committed");
  }

  @Test
  void staleSnapshotAtTheReadAtomicStoreMissesTheSessionsOwnWrite() {
    ReplicatedStore s = new ReplicatedStore(Level.READ_ATOMIC, 2, Set.of(Fault.STALE_SNAPSHOT));
    Recorder r = new Recorder(s);
    Recorder.Tx t1 = r.begin("s0");
    t1.write("x", 1);
    t1.commit();
    assertThat(s.pendingDeliveries()).isEqualTo(2); // its own replica too
    Recorder.Tx t2 = r.begin("s0");
    assertThat(t2.read("x")).isEqualTo(History.NIL);
    t2.commit();
    assertThat(found(new RaChecker().check(r.history()))).containsExactly("commit-order-cycle@read-atomic");
  }

  @Test
  void withoutFaultsTheSameSchedulesAreClean() {
    MvccEngine e = new MvccEngine(Level.SNAPSHOT_ISOLATION, Set.of());
    Recorder r = new Recorder(e);
    Recorder.Tx t1 = r.begin("a");
    t1.write("x", 1);
    t1.write("y", 1);
    t1.commit();
    assertThat(e.pendingDeliveries()).isZero();
    Recorder.Tx t2 = r.begin("a");
    assertThat(t2.read("y")).isEqualTo(1);
    assertThat(t2.read("x")).isEqualTo(1);
    t2.commit();
    assertThat(found(new RaChecker().check(r.history()))).isEmpty();
  }

  /** @return the first seed of {@link EngineSoundnessTest#run} whose history shows {@code expected}, or -1 */
  private static long firstSeed(Level level, Fault fault, boolean lists, Checker checker, String expected) {
    for (long seed = 0; seed < 150; seed++) {
      IsolationEngine e = Engines.create(level, EngineOptions.DEFAULT.with(fault));
      if (found(checker.check(EngineSoundnessTest.run(e, seed, lists))).contains(expected)) {
        return seed;
      }
    }
    return -1;
  }

  /** Every fault is caught within a few seeded random schedules (the first such seed pinned). */
  @Test
  void everyFaultIsCaughtOnRandomSchedules() {
    List<Long> first = List.of(
        firstSeed(Level.SNAPSHOT_ISOLATION, Fault.FRACTURED_VISIBILITY, false, new RaChecker(),
            "commit-order-cycle@read-atomic"),
        firstSeed(Level.READ_ATOMIC, Fault.FRACTURED_VISIBILITY, false, new RaChecker(),
            "commit-order-cycle@read-atomic"),
        firstSeed(Level.SNAPSHOT_ISOLATION, Fault.LOST_UPDATE, true,
            Checkers.adya(Level.SNAPSHOT_ISOLATION, true), "lost-update@snapshot-isolation"),
        firstSeed(Level.SNAPSHOT_ISOLATION, Fault.STALE_SNAPSHOT, true,
            Checkers.adya(Level.SNAPSHOT_ISOLATION, true), "G-single@snapshot-isolation"),
        firstSeed(Level.CAUSAL, Fault.STALE_SNAPSHOT, false, new RaChecker(),
            "commit-order-cycle@read-atomic"),
        firstSeed(Level.READ_COMMITTED, Fault.ABORTED_WRITE_VISIBLE, false, new RcChecker(),
            "G1a@read-committed"),
        firstSeed(Level.SERIALIZABLE, Fault.ABORTED_WRITE_VISIBLE, true,
            Checkers.adya(Level.SERIALIZABLE, true), "G1a@read-committed"));
    assertThat(first).isEqualTo(List.of(0L, 2L, 0L, 1L, 0L, 0L, 0L));
  }
}
