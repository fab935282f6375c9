package io.isowatch.checker.window;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.isowatch.checker.history.TxnStatus;
import io.isowatch.checker.level.Anomaly;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** A window checker that runs only some families of checks ({@link WindowConfig#withFamilies}). */
class CheckFamilyTest {
  private static final WindowConfig WIDE = WindowConfig.of(1000, 0, 1_000_000);

  /** T1 appends x 1 and aborts; T2 reads x = [1] (G1a); T3 and T4 are a write skew on y and z (G2-item). */
  private static List<WindowTxn> history() {
    return List.of(
        WindowTxn.builder("T1", "s1", 1, TxnStatus.ABORTED).append("x", 1).build(),
        WindowTxn.builder("T2", "s2", 2, TxnStatus.COMMITTED).readList("x", new long[] {1}).build(),
        WindowTxn.builder("T3", "s3", 3, TxnStatus.COMMITTED).readList("y", new long[0]).readList("z", new long[0])
            .append("y", 1).build(),
        WindowTxn.builder("T4", "s4", 4, TxnStatus.COMMITTED).readList("y", new long[0]).readList("z", new long[0])
            .append("z", 1).build(),
        WindowTxn.builder("T5", "s5", 5, TxnStatus.COMMITTED).readList("y", new long[] {1}).readList("z", new long[] {1})
            .build());
  }

  private static List<String> found(Set<CheckFamily> families) {
    WindowChecker c = new WindowChecker(WIDE.withFamilies(families), new WindowChecker.Journal() {});
    List<String> out = new ArrayList<>();
    for (WindowTxn t : history()) {
      c.offer(t).violations().forEach(v -> out.add(v.finding().anomaly().id() + " " + v.id()));
    }
    c.finish().violations().forEach(v -> out.add(v.finding().anomaly().id() + " " + v.id()));
    return out;
  }

  @Test
  void eachFamilyFindsItsOwnAndBothFindTheReadAnomalyWithOneId() {
    List<String> axiomatic = found(Set.of(CheckFamily.AXIOMATIC));
    List<String> adya = found(Set.of(CheckFamily.ADYA_POLYGRAPH));
    List<String> all = found(CheckFamily.all());

    assertThat(axiomatic).extracting(s -> s.split(" ")[0]).containsExactly(Anomaly.ABORTED_READ.id());
    assertThat(adya).extracting(s -> s.split(" ")[0]).containsExactlyInAnyOrder(Anomaly.ABORTED_READ.id(), Anomaly.G2_ITEM.id());
    // the G1a both find has one id: the merge of a split check publishes it once
    assertThat(adya).contains(axiomatic.get(0));
    assertThat(all).containsExactlyInAnyOrderElementsOf(adya);
  }

  @Test
  void aCheckerRunsAtLeastOneFamily() {
    assertThatThrownBy(() -> WIDE.withFamilies(Set.of())).isInstanceOf(IllegalArgumentException.class);
    assertThat(WIDE.families()).isEqualTo(CheckFamily.all());
    assertThat(WIDE.withFamilies(Set.of(CheckFamily.AXIOMATIC)).withWatermarks().withPolygraphEvery(7).families())
        .containsExactly(CheckFamily.AXIOMATIC);
  }
}
