package io.isowatch.checker.window;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.isowatch.checker.history.History;
import io.isowatch.checker.history.TxnStatus;
import io.isowatch.checker.finding.Finding;
import io.isowatch.checker.level.Anomaly;
import io.isowatch.checker.level.Level;
import io.isowatch.checker.witness.EdgeType;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class WindowCheckerTest {
  private static final WindowConfig WIDE = WindowConfig.of(1000, 0, 1_000_000);

  private static List<WindowViolation> run(WindowChecker c, List<WindowTxn> txns) {
    List<WindowViolation> out = new ArrayList<>();
    for (WindowTxn t : txns) {
      out.addAll(c.offer(t).violations());
    }
    return out;
  }

  /** A serial history: each transaction reads the last value of two keys and writes both. */
  private static List<WindowTxn> serialRegisters(int n, int keys) {
    long[] last = new long[keys];
    java.util.Arrays.fill(last, History.NIL);
    List<WindowTxn> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      WindowTxn.Builder b = WindowTxn.builder("t" + i, "s" + (i % 7), i, TxnStatus.COMMITTED);
      int k1 = i % keys;
      int k2 = (i * 7 + 3) % keys;
      b.read("x" + k1, last[k1]).read("x" + k2, last[k2]);
      b.write("x" + k1, 2L * i + 1);
      last[k1] = 2L * i + 1;
      if (k2 != k1) {
        b.write("x" + k2, 2L * i + 2);
        last[k2] = 2L * i + 2;
      }
      out.add(b.build());
    }
    return out;
  }

  @Test
  void evictionNeverCreatesAViolationOnALongSerialRegisterHistory() {
    WindowChecker c = new WindowChecker(WindowConfig.of(64, 0, 0), new WindowChecker.Journal() {});
    assertThat(run(c, serialRegisters(5000, 10))).isEmpty();
    assertThat(c.finish().violations()).isEmpty();
    assertThat(c.violatedChecks()).isEmpty();
    assertThat(c.windowSize()).isBetween(32L, 64L);
  }

  @Test
  void evictionNeverCreatesAViolationOnALongSerialListAppendHistory() {
    int keys = 10;
    List<List<Long>> lists = new ArrayList<>();
    for (int k = 0; k < keys; k++) {
      lists.add(new ArrayList<>());
    }
    List<WindowTxn> txns = new ArrayList<>();
    for (int i = 0; i < 5000; i++) {
      int k = i % keys;
      int k2 = (i * 3 + 1) % keys;
      WindowTxn.Builder b = WindowTxn.builder("t" + i, "s" + (i % 5), i, TxnStatus.COMMITTED);
      b.readList("k" + k2, lists.get(k2).stream().mapToLong(Long::longValue).toArray());
      b.append("k" + k, i);
      lists.get(k).add((long) i);
      txns.add(b.build());
    }
    WindowChecker c = new WindowChecker(WindowConfig.of(64, 0, 0), new WindowChecker.Journal() {});
    assertThat(run(c, txns)).isEmpty();
    assertThat(c.finish().violations()).isEmpty();
    assertThat(c.decidesAdyaLevels()).isTrue();
  }

  private static final String WRITE_SKEW = """
      s1 T1: r x [], r y [], a x 1
      s2 T2: r x [], r y [], a y 1
      s3 T3: r x [1], r y [1]
      """;

  @Test
  void writeSkewInsideTheWindowIsAG2Item() {
    WindowChecker c = new WindowChecker(WIDE, new WindowChecker.Journal() {});
    List<WindowViolation> vs = run(c, WindowTxns.parse(WRITE_SKEW));
    assertThat(vs).hasSize(1);
    WindowViolation v = vs.get(0);
    assertThat(v.finding().anomaly()).isEqualTo(Anomaly.G2_ITEM);
    assertThat(v.finding().level()).isEqualTo(Level.SERIALIZABLE);
    assertThat(v.finding().summary()).isEqualTo("cycle T1 -> T2 -> T1 (2 edges)");
    assertThat(v.finding().edges()).extracting(Finding.Arrow::type).containsExactly(EdgeType.RW, EdgeType.RW);
    assertThat(v.finding().edges()).extracting(Finding.Arrow::key).containsExactly("y", "x");
    assertThat(v.finding().txns()).extracting(Finding.Txn::name).containsExactly("T1", "T2");
    assertThat(v.id()).isEqualTo(ViolationIds.of(Anomaly.G2_ITEM, List.of("T2", "T1"), null, v.finding().level()));
    assertThat(v.windowTxns()).isEqualTo(2); // found when T2 arrives: init < 1 is the only version order
    assertThat(c.finish().violations()).isEmpty();
  }

  @Test
  void aReadSkewInsideTheWindowIsAGSingle() {
    WindowChecker c = new WindowChecker(WIDE, new WindowChecker.Journal() {});
    List<WindowViolation> vs = run(c, WindowTxns.parse("""
        s1 T1: a x 1, a y 1
        s2 T2: r x [], r y [1]
        s3 T3: r x [1], r y [1]
        """));
    assertThat(vs).extracting(v -> v.finding().anomaly()).contains(Anomaly.G_SINGLE);
    WindowViolation v = vs.stream().filter(x -> x.finding().anomaly() == Anomaly.G_SINGLE).findFirst().orElseThrow();
    assertThat(v.finding().level()).isEqualTo(Level.SNAPSHOT_ISOLATION);
    assertThat(v.finding().txns()).extracting(Finding.Txn::name).containsExactlyInAnyOrder("T1", "T2");
  }

  /** T1 and T2 of a write skew, {@code gap} unrelated transactions apart, then the reader. */
  private static List<WindowTxn> wideWriteSkew(int gap) {
    List<WindowTxn> txns = new ArrayList<>();
    txns.add(WindowTxn.builder("T1", "s1", 0, TxnStatus.COMMITTED).readList("x", new long[0])
        .readList("y", new long[0]).append("x", 1).build());
    for (int i = 0; i < gap; i++) {
      txns.add(WindowTxn.builder("f" + i, "s4", 1 + i, TxnStatus.COMMITTED).write("z", 100 + i).build());
    }
    txns.add(WindowTxn.builder("T2", "s2", gap + 1, TxnStatus.COMMITTED).readList("x", new long[0])
        .readList("y", new long[0]).append("y", 1).build());
    txns.add(WindowTxn.builder("T3", "s3", gap + 2, TxnStatus.COMMITTED).readList("x", new long[] {1})
        .readList("y", new long[] {1}).build());
    return txns;
  }

  @Test
  void aCycleWiderThanTheWindowIsNotReported() {
    WindowChecker narrow = new WindowChecker(WindowConfig.of(8, 0, 0), new WindowChecker.Journal() {});
    assertThat(run(narrow, wideWriteSkew(20))).isEmpty();
    assertThat(narrow.finish().violations()).isEmpty();
    WindowChecker wide = new WindowChecker(WindowConfig.of(64, 0, 0), new WindowChecker.Journal() {});
    assertThat(run(wide, wideWriteSkew(20))).extracting(v -> v.finding().anomaly()).containsExactly(Anomaly.G2_ITEM);
  }

  @Test
  void theTimeBoundRetiresGenerationsToo() {
    WindowChecker byTime = new WindowChecker(WindowConfig.of(1000, 10, 0), new WindowChecker.Journal() {});
    assertThat(run(byTime, wideWriteSkew(20))).isEmpty(); // T1 and T2 are 21 µs apart, more than T
    assertThat(byTime.windowSize()).isLessThanOrEqualTo(11L);
    WindowChecker close = new WindowChecker(WindowConfig.of(1000, 10, 0), new WindowChecker.Journal() {});
    assertThat(run(close, wideWriteSkew(2))).extracting(v -> v.finding().anomaly()).containsExactly(Anomaly.G2_ITEM);
  }

  @Test
  void aReadOfAColdKeysLatestValueLongAfterItsWriterWasEvictedIsNotUnresolved() {
    WindowChecker c = new WindowChecker(new WindowConfig(8, 0, 0, 0), new WindowChecker.Journal() {});
    c.offer(WindowTxn.builder("W", "s1", 0, TxnStatus.COMMITTED).write("cold", 42).build());
    for (int i = 0; i < 100; i++) {
      c.offer(WindowTxn.builder("f" + i, "s2", 1 + i, TxnStatus.COMMITTED).write("hot", i).build());
    }
    WindowChecker.Outcome o = c.offer(WindowTxn.builder("R", "s3", 200, TxnStatus.COMMITTED).read("cold", 42).build());
    assertThat(o.checked()).isEqualTo(1);
    assertThat(o.violations()).isEmpty();
    assertThat(o.unresolvedReads()).isZero();
  }

  /**
   * Once the evicted-write memory is full, a read of an unknown value of a key that had a write
   * evicted may be of a forgotten write: counted as unresolved, never published as a thin-air read
   * (a consistent history with a long-lived key would otherwise raise a false alarm); a key that
   * never had a write evicted still proves a thin-air read.
   */
  @Test
  void aReadOfAForgottenWriteIsUnresolvedNotAThinAirRead() {
    WindowChecker c = new WindowChecker(new WindowConfig(8, 0, 0, 4), new WindowChecker.Journal() {});
    for (int i = 0; i < 100; i++) {
      c.offer(WindowTxn.builder("w" + i, "s1", i, TxnStatus.COMMITTED).write("k", i).build());
    }
    WindowChecker.Outcome old = c.offer(WindowTxn.builder("R1", "s2", 200, TxnStatus.COMMITTED).read("k", 3).build());
    assertThat(old.checked()).isEqualTo(1);
    assertThat(old.violations()).isEmpty();
    assertThat(old.unresolvedReads()).isEqualTo(1);
    WindowChecker.Outcome fresh =
        c.offer(WindowTxn.builder("R2", "s3", 201, TxnStatus.COMMITTED).read("never-evicted", 7).build());
    assertThat(fresh.unresolvedReads()).isZero();
    assertThat(fresh.violations()).extracting(v -> v.finding().anomaly()).containsExactly(Anomaly.THIN_AIR_READ);
  }

  @Test
  void aCycleWithinHalfTheWindowIsFoundWhereverItStarts() {
    for (int offset = 0; offset < 12; offset++) {
      List<WindowTxn> txns = new ArrayList<>();
      for (int i = 0; i < offset; i++) {
        txns.add(WindowTxn.builder("p" + i, "s5", i, TxnStatus.COMMITTED).write("w", 500 + i).build());
      }
      txns.addAll(wideWriteSkew(1)); // T1 .. T3 span 4 feed positions = W/2
      WindowChecker c = new WindowChecker(WindowConfig.of(8, 0, 0), new WindowChecker.Journal() {});
      assertThat(run(c, txns)).as("offset %d", offset).extracting(v -> v.finding().anomaly())
          .containsExactly(Anomaly.G2_ITEM);
    }
  }

  @Test
  void aReadWhoseWriterNeverArrivesIsReportedOnceWhenTheGraceEnds() {
    WindowChecker c = new WindowChecker(WindowConfig.of(100, 0, 10), new WindowChecker.Journal() {});
    WindowChecker.Outcome o = c.offer(WindowTxn.builder("T1", "s1", 0, TxnStatus.COMMITTED).read("x", 5).build());
    assertThat(o.checked()).isZero();
    assertThat(c.heldCount()).isEqualTo(1);
    o = c.offer(WindowTxn.builder("T2", "s1", 4, TxnStatus.COMMITTED).write("y", 1).build());
    assertThat(o.checked()).isZero(); // held behind T1 in its session
    assertThat(c.advance(9).violations()).isEmpty();
    o = c.advance(10);
    assertThat(o.checked()).isEqualTo(2);
    assertThat(o.unresolvedReads()).isZero(); // reported as a violation, not merely counted
    assertThat(o.violations()).hasSize(1);
    WindowViolation v = o.violations().get(0);
    assertThat(v.finding().anomaly()).isEqualTo(Anomaly.THIN_AIR_READ);
    assertThat(v.finding().level()).isEqualTo(Level.READ_COMMITTED);
    assertThat(v.finding().summary()).isEqualTo("T1 read x = 5, which no transaction wrote within the read grace period");
    assertThat(v.id()).isEqualTo(ViolationIds.of(Anomaly.THIN_AIR_READ, List.of("T1"), "T1#0"));
    assertThat(c.advance(100).violations()).isEmpty();
    assertThat(c.offer(WindowTxn.builder("T3", "s2", 101, TxnStatus.COMMITTED).write("x", 5).build())
        .violations()).isEmpty();
    assertThat(c.finish().violations()).isEmpty();
  }

  /**
   * With watermarks, end times far ahead of a held reader (another partition's transactions, which
   * progress faster) do not expire its grace: the writer, late on its own partition, still arrives
   * in time, and nothing is reported (what the largest end time as clock published as a thin-air
   * read).
   */
  @Test
  void withWatermarksLaterEndTimesDoNotExpireTheGrace() {
    WindowChecker c = new WindowChecker(WindowConfig.of(100, 0, 10).withWatermarks(),
        new WindowChecker.Journal() {});
    assertThat(c.offer(WindowTxn.builder("R", "s1", 5, TxnStatus.COMMITTED).read("x", 7).build()).checked()).isZero();
    WindowChecker.Outcome o = c.offer(WindowTxn.builder("F", "s2", 500, TxnStatus.COMMITTED).write("y", 1).build());
    assertThat(o.checked()).isEqualTo(1);
    assertThat(c.heldCount()).isEqualTo(1);
    o = c.advance(14, false); // the lagging source has not passed 5 + 10
    assertThat(o.checked()).isZero();
    assertThat(c.heldCount()).isEqualTo(1);
    o = c.offer(WindowTxn.builder("W", "s3", 4, TxnStatus.COMMITTED).write("x", 7).build());
    assertThat(o.checked()).isEqualTo(2);
    assertThat(o.violations()).isEmpty();
    assertThat(o.unresolvedReads()).isZero();
    assertThat(c.advance(10_000, false).violations()).isEmpty();
  }

  /** With watermarks, a read is reported as a thin-air read once the low watermark passes its grace. */
  @Test
  void withWatermarksAReadIsReportedWhenTheLowWatermarkPassesTheGrace() {
    WindowChecker c = new WindowChecker(WindowConfig.of(100, 0, 10).withWatermarks(),
        new WindowChecker.Journal() {});
    c.offer(WindowTxn.builder("R", "s1", 5, TxnStatus.COMMITTED).read("x", 7).build());
    assertThat(c.advance(14, false).checked()).isZero();
    WindowChecker.Outcome o = c.advance(15, false);
    assertThat(o.checked()).isEqualTo(1);
    assertThat(o.unresolvedReads()).isZero();
    assertThat(o.violations()).extracting(v -> v.finding().summary())
        .containsExactly("R read x = 7, which no transaction wrote within the read grace period");
  }

  /**
   * With watermarks, a reader given up on (a source stalled) is fed with the read unknown, counted
   * as unresolved, and never reported, not even when the low watermark later passes it; a reader
   * the low watermark has passed is reported in the same call.
   */
  @Test
  void withWatermarksAReadGivenUpOnIsCountedAsUnresolvedNotReported() {
    WindowChecker c = new WindowChecker(WindowConfig.of(100, 0, 10).withWatermarks(),
        new WindowChecker.Journal() {});
    c.offer(WindowTxn.builder("R", "s1", 5, TxnStatus.COMMITTED).read("x", 7).build());
    c.offer(WindowTxn.builder("Q", "s2", 1, TxnStatus.COMMITTED).read("y", 8).build());
    assertThat(c.advance(0, false).checked()).isZero();
    WindowChecker.Outcome o = c.advance(11, true);
    assertThat(o.checked()).isEqualTo(2);
    assertThat(o.unresolvedReads()).isEqualTo(1);
    assertThat(o.violations()).extracting(v -> v.finding().summary())
        .containsExactly("Q read y = 8, which no transaction wrote within the read grace period");
    assertThat(c.advance(10_000, false).violations()).isEmpty();
    assertThat(c.finish().violations()).isEmpty();
  }

  @Test
  void endTimeCheckersRefuseWatermarks() {
    WindowChecker c = new WindowChecker(WindowConfig.of(100, 0, 10), new WindowChecker.Journal() {});
    assertThatThrownBy(() -> c.advance(1, false)).isInstanceOf(IllegalStateException.class)
        .hasMessage("this checker's read grace runs on end times, not watermarks");
  }

  @Test
  void aReadWhoseWriterArrivesLateWaitsAndIsNotReported() {
    WindowChecker c = new WindowChecker(WindowConfig.of(100, 0, 10), new WindowChecker.Journal() {});
    assertThat(c.offer(WindowTxn.builder("T1", "s1", 0, TxnStatus.COMMITTED).read("x", 5).build()).checked()).isZero();
    WindowChecker.Outcome o = c.offer(WindowTxn.builder("T2", "s2", 3, TxnStatus.COMMITTED).write("x", 5).build());
    assertThat(o.checked()).isEqualTo(2);
    assertThat(o.violations()).isEmpty();
    assertThat(c.heldCount()).isZero();
    assertThat(c.advance(1000).violations()).isEmpty();
  }

  @Test
  void duplicatesAreRejectedBeforeAnyChange() {
    WindowChecker c = new WindowChecker(WIDE, new WindowChecker.Journal() {});
    c.offer(WindowTxn.builder("T1", "s1", 0, TxnStatus.COMMITTED).write("x", 1).build());
    assertThatThrownBy(() -> c.offer(WindowTxn.builder("T1", "s1", 1, TxnStatus.COMMITTED).build()))
        .isInstanceOf(RejectedTransactionException.class)
        .extracting(e -> ((RejectedTransactionException) e).reasonClass()).isEqualTo("duplicate-txn");
    assertThatThrownBy(() -> c.offer(WindowTxn.builder("T2", "s1", 1, TxnStatus.COMMITTED).write("x", 1).build()))
        .isInstanceOf(RejectedTransactionException.class)
        .hasMessage("operation 0 of T2 writes 1 to x, which an earlier transaction wrote");
    assertThat(c.offer(WindowTxn.builder("T2", "s1", 1, TxnStatus.COMMITTED).read("x", 1).build()).checked())
        .isEqualTo(1);
    assertThatThrownBy(() -> WindowTxn.builder("T9", "s1", 1, TxnStatus.COMMITTED).write("x", 7).write("x", 7).build())
        .hasMessage("operation 1 of T9 writes 7 to x a second time");
    assertThatThrownBy(() -> WindowTxn.builder("T9", "s1", 1, TxnStatus.COMMITTED).read(null, 7).build())
        .extracting(e -> ((RejectedTransactionException) e).reasonClass()).isEqualTo("null-key");
  }

  @Test
  void restoredCheckerContinuesWithoutRepeatingViolations() {
    List<WindowTxn> txns = new ArrayList<>(serialRegisters(40, 5));
    txns.addAll(WindowTxns.parse(WRITE_SKEW));
    txns.addAll(serialRegisters(80, 5).subList(40, 80));
    txns.add(WindowTxn.builder("R1", "s9", 500, TxnStatus.COMMITTED).read("q", 77).build());
    txns.add(WindowTxn.builder("R2", "s8", 600, TxnStatus.COMMITTED).read("q", History.NIL).build());
    WindowConfig config = WindowConfig.of(16, 0, 50);

    WindowChecker straight = new WindowChecker(config, new WindowChecker.Journal() {});
    List<String> expected = new ArrayList<>();
    run(straight, txns).forEach(v -> expected.add(v.id()));

    for (int cut = 1; cut < txns.size(); cut += 7) {
      MemoryJournal journal = new MemoryJournal();
      WindowChecker first = new WindowChecker(config, journal);
      List<String> ids = new ArrayList<>();
      run(first, txns.subList(0, cut)).forEach(v -> ids.add(v.id()));
      WindowChecker second = journal.restore(config, first.meta());
      run(second, txns.subList(cut, txns.size())).forEach(v -> ids.add(v.id()));
      assertThat(ids).as("cut at %d", cut).isEqualTo(expected);
      assertThat(second.windowSize()).isEqualTo(straight.windowSize());
    }
    assertThat(expected).hasSize(2);
  }
}
