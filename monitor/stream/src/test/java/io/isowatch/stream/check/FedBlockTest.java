package io.isowatch.stream.check;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.isowatch.checker.history.History;
import io.isowatch.checker.history.TxnStatus;
import io.isowatch.checker.window.WindowChecker;
import io.isowatch.checker.window.WindowTxn;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class FedBlockTest {
  private static final WindowTxn T1 = WindowTxn.builder("T1", "s1", 1_700_000_000_000_001L, TxnStatus.COMMITTED)
      .read("x", History.NIL).write("x", 1).readList("l", new long[] {3, -4, 5}).append("l", 6).build();
  private static final WindowTxn T2 = WindowTxn.builder("T2", "s2", -7, TxnStatus.ABORTED)
      .read("x", 1).build();
  private static final WindowTxn T3 = WindowTxn.builder("T3", "s\u00e9", 9, TxnStatus.UNKNOWN).build();

  @Test
  void aBlockReadsBackEveryTransactionAndItsUnresolvedReads() {
    FedBlock block = new FedBlock();
    block.open(FedBlock.of(33), null);
    block.append(32, T1, new int[] {0, 2});
    block.append(33, T2, new int[0]);

    List<WindowChecker.Fed> fed = new ArrayList<>();
    FedBlock.read(block.bytes(), 0, fed);

    assertThat(block.index()).isEqualTo(1);
    assertThat(fed).hasSize(2);
    assertThat(fed.get(0).seq()).isEqualTo(32);
    assertThat(fed.get(0).txn()).isEqualTo(T1);
    assertThat(fed.get(0).unresolved()).containsExactly(0, 2);
    assertThat(fed.get(1).seq()).isEqualTo(33);
    assertThat(fed.get(1).txn()).isEqualTo(T2);
    assertThat(fed.get(1).unresolved()).isEmpty();
  }

  @Test
  void aBlockReopenedFromTheStoreContinuesAndTheEvictedPartIsSkipped() {
    FedBlock first = new FedBlock();
    first.open(0, null);
    first.append(0, T1, new int[0]);
    first.append(1, T2, new int[0]);
    FedBlock reopened = new FedBlock();
    reopened.open(0, first.bytes());
    reopened.append(2, T3, new int[0]);

    List<WindowChecker.Fed> fed = new ArrayList<>();
    FedBlock.read(reopened.bytes(), 1, fed);

    assertThat(fed).extracting(WindowChecker.Fed::seq).containsExactly(1L, 2L);
    assertThat(fed).extracting(WindowChecker.Fed::txn).containsExactly(T2, T3);
  }

  @Test
  void bytesOfAnotherFormatAreRefused() {
    List<WindowChecker.Fed> fed = new ArrayList<>();
    assertThatThrownBy(() -> FedBlock.read(new byte[] {0, 1, 2}, 0, fed))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("window store block of format 0, this version reads format 1");
    assertThatThrownBy(() -> FedBlock.read(new byte[] {FedBlock.FORMAT, 2}, 0, fed))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("window store block cannot be decoded: ");
  }
}
