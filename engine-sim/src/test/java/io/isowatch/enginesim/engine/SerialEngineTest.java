package io.isowatch.enginesim.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.isowatch.checker.history.History;
import io.isowatch.checker.level.Level;
import io.isowatch.enginesim.run.Client;
import io.isowatch.enginesim.run.HistoryText;
import org.junit.jupiter.api.Test;

/** The serial engine admits one transaction at a time. */
class SerialEngineTest {

  @Test
  void aSecondSessionWaitsUntilTheFirstEnds() {
    SerialEngine engine = new SerialEngine();
    History h = new History();
    Client a = new Client(engine, h, "a");
    Client b = new Client(engine, h, "b");

    assertThat(engine.level()).isEqualTo(Level.SERIALIZABLE);
    assertThat(a.begin()).isTrue();
    assertThat(b.begin()).isFalse();
    a.write("x", 1);
    assertThat(b.begin()).isFalse();
    a.commit();
    assertThat(b.begin()).isTrue();
    assertThat(a.begin()).isFalse();
    assertThat(b.read("x")).isEqualTo(1);
    b.abort();
    assertThat(a.begin()).isTrue();
    assertThat(a.read("x")).isEqualTo(1);
    a.commit();

    assertThat(HistoryText.render(h)).isEqualTo(
        "a T1: w x 1\n"
            + "b T2: r x 1 | aborted\n"
            + "a T3: r x 1\n");
  }

  @Test
  void waitingHandsOutNoTransactionId() {
    SerialEngine engine = new SerialEngine();

    assertThat(engine.begin(0)).isEqualTo(0);
    assertThat(engine.begin(1)).isEqualTo(IsolationEngine.WAIT);
    engine.commit(0);
    assertThat(engine.begin(1)).isEqualTo(1);
  }
}
