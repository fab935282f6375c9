package io.isowatch.bench.process;

import static org.assertj.core.api.Assertions.assertThat;

import io.isowatch.checker.format.HistoryFiles;
import io.isowatch.checker.format.HistoryFormat;
import io.isowatch.checker.history.History;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WorkloadTest {
  @Test
  void registerFileReadsBackWithItsTransactionsAndOperations(@TempDir Path dir) throws Exception {
    Workload w = Workload.register(dir, 200);
    History h = HistoryFiles.read(w.file(), HistoryFormat.PLUME, bytes -> { });
    assertThat(new int[] {h.txnCount(), h.opCount()}).containsExactly(200, 1_600);
    assertThat(new int[] {w.transactions(), w.ops()}).containsExactly(200, 1_600);
    assertThat(w.label()).isEqualTo("200");
  }

  @Test
  void oneReaderFileHasOneReaderAndTheWriters(@TempDir Path dir) throws Exception {
    Workload w = Workload.oneReader(dir, 100);
    History h = HistoryFiles.read(w.file(), HistoryFormat.PLUME, bytes -> { });
    assertThat(h.txnCount()).isEqualTo(1 + Workload.WRITERS);
    assertThat(h.opCount()).isEqualTo(w.ops());
    assertThat(w.label()).isEqualTo("one reader of 10^2 reads");
  }

  @Test
  void powersOfTenAreWrittenAsPowers() {
    assertThat(new String[] {Workload.power(10_000), Workload.power(1_000_000), Workload.power(20), Workload.power(10)})
        .containsExactly("10^4", "10^6", "20", "10");
  }
}
