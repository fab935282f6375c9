package io.isowatch.enginesim.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.isowatch.checker.format.HistoryFiles;
import io.isowatch.checker.format.HistoryFormat;
import io.isowatch.checker.history.History;
import io.isowatch.checker.history.TxnStatus;
import io.isowatch.enginesim.ladder.LadderRun;
import io.isowatch.enginesim.ladder.Rung;
import io.isowatch.enginesim.workload.ListAppendWorkload;
import io.isowatch.enginesim.workload.WorkloadSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The simulation's stream of completed transactions, list operations, aborts and determinism. */
class TransactionStreamTest {
  @TempDir Path dir;

  private byte[] jsonl(History h, String name) throws Exception {
    Path p = dir.resolve(name);
    HistoryFiles.write(h, HistoryFormat.JSONL, p);
    return Files.readAllBytes(p);
  }

  @Test
  void theSameSeedGivesTheSameJsonLinesByteForByteOnEveryRung() throws Exception {
    for (Rung r : Rung.values()) {
      byte[] first = jsonl(LadderRun.history(r, LadderRun.CONTENDED, 42), r + "-a");
      byte[] again = jsonl(LadderRun.history(r, LadderRun.CONTENDED, 42), r + "-b");
      byte[] other = jsonl(LadderRun.history(r, LadderRun.CONTENDED, 43), r + "-c");

      assertThat(again).as("%s", r).isEqualTo(first);
      assertThat(other).as("%s", r).isNotEqualTo(first);
    }
  }

  @Test
  void theListenerSeesEveryTransactionOfTheHistoryInOrder() {
    WorkloadSpec spec = new WorkloadSpec(2, 2, 2, 2, 0.5, 5);
    List<SimTransaction> stream = new ArrayList<>();
    History h = Simulation.run(Rung.SI.engine(), ListAppendWorkload.generate(spec), spec.scheduleSeed(), stream::add);

    assertThat(stream).hasSize(h.txnCount()).hasSize(4);
    for (int t = 0; t < h.txnCount(); t++) {
      SimTransaction s = stream.get(t);
      assertThat(s.session()).isEqualTo(h.sessionName(h.sessionOf(t)));
      assertThat(s.label()).isEqualTo(h.label(t));
      assertThat(s.status()).isEqualTo(h.status(t));
      assertThat(s.ops()).hasSize(h.opEnd(t) - h.opStart(t));
    }
    // s1's T2 and T3 lose first-updater-wins to s0's T1 (x0, x1); elements numbered s0's first
    assertThat(stream).isEqualTo(List.of(
        new SimTransaction("s1", 2, TxnStatus.ABORTED, List.of(
            new SimOp(SimOp.Kind.READ_LIST, "x1", null, List.of()),
            new SimOp(SimOp.Kind.APPEND, "x0", 2L, List.of()))),
        new SimTransaction("s0", 1, TxnStatus.COMMITTED, List.of(
            new SimOp(SimOp.Kind.APPEND, "x0", 1L, List.of()),
            new SimOp(SimOp.Kind.APPEND, "x1", 1L, List.of()))),
        new SimTransaction("s0", 4, TxnStatus.COMMITTED, List.of(
            new SimOp(SimOp.Kind.READ_LIST, "x0", null, List.of(1L)),
            new SimOp(SimOp.Kind.READ_LIST, "x1", null, List.of(1L)))),
        new SimTransaction("s1", 3, TxnStatus.ABORTED, List.of(
            new SimOp(SimOp.Kind.APPEND, "x1", 2L, List.of()),
            new SimOp(SimOp.Kind.READ_LIST, "x0", null, List.of())))));
  }
}
