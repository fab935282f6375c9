package io.isowatch.enginesim.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.isowatch.checker.history.History;
import io.isowatch.checker.history.TxnStatus;
import io.isowatch.checker.level.Level;
import io.isowatch.enginesim.run.Client;
import io.isowatch.enginesim.run.HistoryText;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Hand-scheduled sessions under read committed, with the exact values each read returns. */
class MvccReadCommittedTest {

  @Test
  void eachReadSeesTheLatestCommittedVersion() {
    MvccEngine engine = new MvccEngine(Level.READ_COMMITTED, Set.of());
    History h = new History();
    Client a = new Client(engine, h, "a");
    Client b = new Client(engine, h, "b");

    assertThat(a.begin()).isTrue();
    a.write("x", 1);
    assertThat(b.begin()).isTrue();
    assertThat(b.read("x")).isEqualTo(History.NIL); // a's write is buffered: no dirty read
    assertThat(a.commit()).isEqualTo(TxnStatus.COMMITTED);
    assertThat(b.read("x")).isEqualTo(1); // non-repeatable read: now the committed 1
    b.write("x", 2);
    assertThat(b.read("x")).isEqualTo(2); // its own write
    assertThat(a.begin()).isTrue();
    assertThat(a.read("x")).isEqualTo(1); // b has not committed yet
    assertThat(b.commit()).isEqualTo(TxnStatus.COMMITTED);
    assertThat(a.read("x")).isEqualTo(2);
    assertThat(a.commit()).isEqualTo(TxnStatus.COMMITTED);

    assertThat(HistoryText.render(h)).isEqualTo(
        "a T1: w x 1\n"
            + "b T2: r x _, r x 1, w x 2, r x 2\n"
            + "a T3: r x 1, r x 2\n");
    assertThat(engine.versions(h.key("x"))).containsExactly(1L, 2L);
  }

  @Test
  void anAbortedWriteIsNeverSeen() {
    MvccEngine engine = new MvccEngine(Level.READ_COMMITTED, Set.of());
    History h = new History();
    Client a = new Client(engine, h, "a");
    Client b = new Client(engine, h, "b");

    a.begin();
    a.write("x", 1);
    a.write("y", 1);
    a.abort();
    b.begin();
    assertThat(b.read("x")).isEqualTo(History.NIL);
    assertThat(b.read("y")).isEqualTo(History.NIL);
    b.commit();

    assertThat(HistoryText.render(h)).isEqualTo(
        "a T1: w x 1, w y 1 | aborted\n"
            + "b T2: r x _, r y _\n");
    assertThat(engine.versions(h.key("x"))).isEmpty();
  }

  @Test
  void lastCommitterWinsTheVersionOrder() {
    MvccEngine engine = new MvccEngine(Level.READ_COMMITTED, Set.of());
    History h = new History();
    Client a = new Client(engine, h, "a");
    Client b = new Client(engine, h, "b");

    a.begin();
    b.begin();
    a.write("x", 1);
    b.write("x", 2);
    b.commit();
    a.commit(); // a lost update is allowed at read committed

    assertThat(engine.versions(h.key("x"))).containsExactly(2L, 1L);
    assertThat(HistoryText.render(h)).isEqualTo("b T2: w x 2\na T1: w x 1\n");
  }

  @Test
  void operationsOnAnEndedTransactionAreRefused() {
    MvccEngine engine = new MvccEngine(Level.READ_COMMITTED, Set.of());
    int t = engine.begin(0);
    engine.commit(t);

    assertThatThrownBy(() -> engine.read(t, 0))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("transaction 0 is not active");
    assertThatThrownBy(() -> engine.write(7, 0, 1))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("transaction 7 is not active");
  }
}
