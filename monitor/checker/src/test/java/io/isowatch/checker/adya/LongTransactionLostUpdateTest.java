package io.isowatch.checker.adya;

import static org.assertj.core.api.Assertions.assertThat;

import io.isowatch.checker.history.History;
import io.isowatch.checker.history.TxnStatus;
import io.isowatch.checker.level.Anomaly;
import io.isowatch.checker.level.Level;
import io.isowatch.checker.witness.Violation;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Lost updates found in long transactions (over {@code ReadAnomalies.SHORT_TXN} operations, the hash
 * map path) exactly as in short ones (the scan), and a single reader of many keys checked in linear
 * time: {@code check --level read-committed} runs this check in the background.
 */
class LongTransactionLostUpdateTest {
  /** T1 and T2 first read x's initial value, then write x; each pads with {@code pad} reads of other keys. */
  private static History lostUpdate(int pad) {
    History h = new History();
    int x = h.key("x");
    for (int s = 1; s <= 2; s++) {
      h.beginTxn(h.session("s" + s), s);
      for (int i = 0; i < pad; i++) {
        h.read(h.key("k" + s + "." + i), History.NIL);
      }
      h.read(x, History.NIL);
      for (int i = 0; i < pad; i++) {
        h.write(h.key("k" + s + "." + i), s * 1000 + i);
      }
      h.read(x, History.NIL);
      h.write(x, s);
      h.end(TxnStatus.COMMITTED);
    }
    return h;
  }

  private static List<List<Integer>> lostUpdates(History h) {
    return new AdyaChecker(Level.SNAPSHOT_ISOLATION).check(h).violations().stream()
        .filter(v -> v.anomaly() == Anomaly.LOST_UPDATE)
        .map(Violation::witness).map(w -> w.txns()).toList();
  }

  @Test
  void longAndShortTransactionsGiveTheSameLostUpdate() {
    assertThat(lostUpdates(lostUpdate(2))).containsExactly(List.of(0, 1));
    assertThat(lostUpdates(lostUpdate(40))).containsExactly(List.of(0, 1));
  }

  @Test
  void aReaderOfManyKeysIsCheckedInLinearTime() {
    History h = new History();
    h.beginTxn(h.session("writer"), 1);
    int n = 200_000;
    for (int i = 0; i < n; i++) {
      h.write(h.key("k" + i), 1);
    }
    h.end(TxnStatus.COMMITTED);
    h.beginTxn(h.session("reader"), 2);
    for (int i = 0; i < n; i++) {
      h.read(h.key("k" + i), 1);
    }
    h.end(TxnStatus.COMMITTED);
    // quadratic scans would take minutes here; the read uncommitted check also looks for lost updates
    assertThat(new AdyaChecker(Level.READ_UNCOMMITTED).check(h).violations()).isEmpty();
  }
}
