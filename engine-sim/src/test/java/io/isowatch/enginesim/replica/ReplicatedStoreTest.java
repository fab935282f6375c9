package io.isowatch.enginesim.replica;

import static io.isowatch.checker.history.TxnStatus.COMMITTED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.isowatch.checker.awdit.CcChecker;
import io.isowatch.checker.awdit.RaChecker;
import io.isowatch.checker.history.History;
import io.isowatch.checker.level.Anomaly;
import io.isowatch.checker.level.Level;
import io.isowatch.checker.level.Verdict;
import io.isowatch.checker.witness.CheckResult;
import io.isowatch.enginesim.engine.Fault;
import io.isowatch.enginesim.engine.Recorder;
import io.isowatch.enginesim.engine.Scripted;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Hand-scheduled sessions and deliveries on the replicated stores, with the exact values read. */
class ReplicatedStoreTest {

  @Test
  void sessionsAreBoundToReplicasRoundRobin() {
    ReplicatedStore s = new ReplicatedStore(Level.READ_ATOMIC, 3, Set.of());

    assertThat(List.of(s.replicaOf(0), s.replicaOf(1), s.replicaOf(2), s.replicaOf(3), s.replicaOf(7)))
        .containsExactly(0, 1, 2, 0, 1);
  }

  /**
   * Read atomic: a transaction that began before a delivery keeps its snapshot, so it sees both of
   * T1's writes or neither (no fractured read); one that begins after sees both.
   */
  @Test
  void readAtomicShowsNoFracturedRead() {
    ReplicatedStore s = new ReplicatedStore(Level.READ_ATOMIC, 2, Set.of());
    Recorder r = new Recorder(s);
    Recorder.Tx t1 = r.begin("s0");
    t1.write("x", 1);
    t1.write("y", 1);
    assertThat(t1.commit()).isEqualTo(COMMITTED);
    Recorder.Tx t2 = r.begin("s1");
    assertThat(t2.read("x")).isEqualTo(History.NIL);
    assertThat(s.pendingDeliveries()).isEqualTo(1);
    assertThat(s.deliver(new Scripted(0))).isTrue();
    assertThat(s.pendingDeliveries()).isZero();
    assertThat(t2.read("y")).isEqualTo(History.NIL);
    t2.commit();
    Recorder.Tx t3 = r.begin("s1");
    assertThat(t3.read("x")).isEqualTo(1);
    assertThat(t3.read("y")).isEqualTo(1);
    t3.commit();

    assertThat(new RaChecker().check(r.history()).verdict()).isEqualTo(Verdict.CONSISTENT);
    assertThat(s.deliver(new Scripted())).isFalse();
  }

  /** T1 at r0; T2 at r1 reads T1 and writes y; T2 reaches r2 before T1: T3 there sees y without x. */
  @Test
  void readAtomicAdmitsACausalityViolation() {
    ReplicatedStore s = new ReplicatedStore(Level.READ_ATOMIC, 3, Set.of());
    Recorder r = new Recorder(s);
    History h = r.history();
    h.session("s0");
    h.session("s1");
    h.session("s2");
    Recorder.Tx t1 = r.begin("s0");
    t1.write("x", 1);
    t1.commit(); // pending: (T1, r1), (T1, r2)
    s.deliver(new Scripted(0)); // T1 at r1
    Recorder.Tx t2 = r.begin("s1");
    assertThat(t2.read("x")).isEqualTo(1);
    t2.write("y", 1);
    t2.commit(); // pending: (T1, r2), (T2, r0), (T2, r2)
    assertThat(s.pendingDeliveries()).isEqualTo(3);
    s.deliver(new Scripted(2)); // T2 at r2, before T1
    Recorder.Tx t3 = r.begin("s2");
    assertThat(t3.read("y")).isEqualTo(1);
    assertThat(t3.read("x")).isEqualTo(History.NIL);
    t3.commit();

    assertThat(new RaChecker().check(h).verdict()).isEqualTo(Verdict.CONSISTENT);
    CheckResult cc = new CcChecker().check(h);
    assertThat(cc.verdict()).isEqualTo(Verdict.VIOLATED);
    assertThat(cc.violations().get(0).anomaly()).isEqualTo(Anomaly.COMMIT_ORDER_CYCLE);
  }

  /** The same schedule at causal: T2 waits at r2 until T1 is there, so T3 cannot see y without x. */
  @Test
  void causalDeliveryWaitsForTheCausalPast() {
    ReplicatedStore s = new ReplicatedStore(Level.CAUSAL, 3, Set.of());
    Recorder r = new Recorder(s);
    Recorder.Tx t1 = r.begin("s0");
    t1.write("x", 1);
    t1.commit();
    s.deliver(new Scripted(0)); // T1 at r1
    Recorder.Tx t2 = r.begin("s1");
    assertThat(t2.read("x")).isEqualTo(1);
    t2.write("y", 1);
    t2.commit(); // pending: (T1, r2), (T2, r0), (T2, r2) — the last not ready
    s.deliver(new Scripted(1)); // of the two ready ones, (T2, r0)
    assertThat(s.valueAt(0, 1)).isEqualTo(1);
    Recorder.Tx t3 = r.begin("s2");
    assertThat(t3.read("y")).isEqualTo(History.NIL);
    assertThat(t3.read("x")).isEqualTo(History.NIL);
    t3.commit();
    s.deliver(new Scripted(0)); // only (T1, r2) is ready
    assertThat(s.valueAt(2, 0)).isEqualTo(1);
    assertThat(s.valueAt(2, 1)).isEqualTo(History.NIL);
    s.deliver(new Scripted(0)); // now (T2, r2)
    Recorder.Tx t4 = r.begin("s2");
    assertThat(t4.read("y")).isEqualTo(1);
    assertThat(t4.read("x")).isEqualTo(1);
    t4.commit();

    assertThat(s.pendingDeliveries()).isZero();
    assertThat(new CcChecker().check(r.history()).verdict()).isEqualTo(Verdict.CONSISTENT);
  }

  /** Session order is causal too: s0's second write cannot overtake its first at another replica. */
  @Test
  void causalDeliveryKeepsSessionOrder() {
    ReplicatedStore s = new ReplicatedStore(Level.CAUSAL, 2, Set.of());
    Recorder r = new Recorder(s);
    Recorder.Tx t1 = r.begin("s0");
    t1.write("x", 1);
    t1.commit();
    Recorder.Tx t2 = r.begin("s0");
    assertThat(t2.read("x")).isEqualTo(1); // its own session's write, applied at its replica
    t2.write("y", 2);
    t2.commit();
    assertThat(s.pendingDeliveries()).isEqualTo(2);
    s.deliver(new Scripted(0)); // only T1 is ready at r1
    assertThat(s.valueAt(1, 0)).isEqualTo(1);
    assertThat(s.valueAt(1, 1)).isEqualTo(History.NIL);
  }

  /** Both levels allow lost updates: no write-write conflict detection, last writer wins everywhere. */
  @Test
  void concurrentWritersBothCommitAndTheLastWriterWins() {
    for (Level level : List.of(Level.READ_ATOMIC, Level.CAUSAL)) {
      ReplicatedStore s = new ReplicatedStore(level, 2, Set.of());
      Recorder r = new Recorder(s);
      Recorder.Tx t1 = r.begin("s0");
      Recorder.Tx t2 = r.begin("s1");
      assertThat(t1.read("x")).isEqualTo(History.NIL);
      assertThat(t2.read("x")).isEqualTo(History.NIL);
      t1.write("x", 1);
      t2.write("x", 2);
      assertThat(t2.commit()).isEqualTo(COMMITTED);
      assertThat(t1.commit()).isEqualTo(COMMITTED);
      assertThat(s.valueAt(0, 0)).isEqualTo(1);
      assertThat(s.valueAt(1, 0)).isEqualTo(2);
      s.deliver(new Scripted(0));
      s.deliver(new Scripted(0));
      assertThat(s.valueAt(0, 0)).as("%s", level).isEqualTo(1); // t1 committed last: it wins
      assertThat(s.valueAt(1, 0)).as("%s", level).isEqualTo(1);
    }
  }

  @Test
  void listsReadTheSnapshotAndTheOwnAppends() {
    ReplicatedStore s = new ReplicatedStore(Level.CAUSAL, 2, Set.of());
    Recorder r = new Recorder(s);
    Recorder.Tx t1 = r.begin("s0");
    t1.append("l", 1);
    assertThat(t1.readList("l")).containsExactly(1L);
    t1.commit();
    s.deliver(new Scripted(0));
    Recorder.Tx t2 = r.begin("s1");
    t2.append("l", 2);
    assertThat(t2.readList("l")).containsExactly(1L, 2L);
    t2.commit();
  }

  @Test
  void badConfigurationsAreRefused() {
    assertThatThrownBy(() -> new ReplicatedStore(Level.SNAPSHOT_ISOLATION, 2, Set.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("replicated stores are read-atomic or causal, not snapshot-isolation");
    assertThatThrownBy(() -> new ReplicatedStore(Level.CAUSAL, 0, Set.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("replicas must be at least 1, was 0");
    assertThatThrownBy(() -> new ReplicatedStore(Level.CAUSAL, 2, Set.of(Fault.LOST_UPDATE)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("fault LOST_UPDATE changes nothing at causal, which allows lost updates");
  }
}
