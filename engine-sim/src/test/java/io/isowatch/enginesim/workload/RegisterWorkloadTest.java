package io.isowatch.enginesim.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.isowatch.checker.history.OpKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class RegisterWorkloadTest {

  @Test
  void shapeFollowsTheSpec() {
    List<List<List<ProgramOp>>> w = RegisterWorkload.generate(new WorkloadSpec(3, 4, 5, 6, 0.5, 11));

    assertThat(w).hasSize(3);
    for (List<List<ProgramOp>> session : w) {
      assertThat(session).hasSize(5);
      session.forEach(txn -> assertThat(txn).hasSize(6));
    }
  }

  @Test
  void writtenValuesAreOneTwoThreeInGenerationOrderPerKey() {
    List<List<List<ProgramOp>>> w = RegisterWorkload.generate(new WorkloadSpec(4, 3, 10, 4, 0.3, 5));

    Map<String, List<Long>> byKey = new TreeMap<>();
    int reads = 0;
    for (List<List<ProgramOp>> session : w) {
      for (List<ProgramOp> txn : session) {
        for (ProgramOp op : txn) {
          if (op.kind() == OpKind.WRITE) {
            byKey.computeIfAbsent(op.key(), k -> new ArrayList<>()).add(op.value());
          } else {
            assertThat(op).isEqualTo(ProgramOp.read(op.key()));
            reads++;
          }
        }
      }
    }
    assertThat(byKey.keySet()).containsExactly("x0", "x1", "x2");
    int writes = 0;
    for (List<Long> values : byKey.values()) {
      for (int i = 0; i < values.size(); i++) {
        assertThat(values.get(i)).isEqualTo(i + 1L);
      }
      writes += values.size();
    }
    assertThat(reads + writes).isEqualTo(4 * 10 * 4);
  }

  @Test
  void readRatioZeroAndOneGiveOnlyWritesOrOnlyReads() {
    List<List<List<ProgramOp>>> writesOnly = RegisterWorkload.generate(new WorkloadSpec(1, 1, 1, 3, 0.0, 1));
    List<List<List<ProgramOp>>> readsOnly = RegisterWorkload.generate(new WorkloadSpec(1, 1, 1, 3, 1.0, 1));

    assertThat(writesOnly).isEqualTo(List.of(List.of(List.of(
        ProgramOp.write("x0", 1), ProgramOp.write("x0", 2), ProgramOp.write("x0", 3)))));
    assertThat(readsOnly).isEqualTo(List.of(List.of(List.of(
        ProgramOp.read("x0"), ProgramOp.read("x0"), ProgramOp.read("x0")))));
  }

  @Test
  void theSameSeedGivesTheSameWorkload() {
    WorkloadSpec spec = new WorkloadSpec(3, 5, 4, 3, 0.5, 99);

    assertThat(RegisterWorkload.generate(spec)).isEqualTo(RegisterWorkload.generate(spec));
  }

  @Test
  void parametersOutOfRangeAreNamed() {
    assertThatThrownBy(() -> new WorkloadSpec(0, 1, 1, 1, 0.5, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("sessions must be at least 1, was 0");
    assertThatThrownBy(() -> new WorkloadSpec(1, 1, 1, 0, 0.5, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("opsPerTxn must be at least 1, was 0");
    assertThatThrownBy(() -> new WorkloadSpec(1, 1, 1, 1, 1.5, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("readRatio must be in [0, 1], was 1.5");
    assertThatThrownBy(() -> new WorkloadSpec(1, 1, 1, 1, Double.NaN, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("readRatio must be in [0, 1], was NaN");
  }
}
