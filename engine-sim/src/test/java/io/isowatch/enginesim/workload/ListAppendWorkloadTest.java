package io.isowatch.enginesim.workload;

import static org.assertj.core.api.Assertions.assertThat;

import io.isowatch.checker.history.OpKind;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ListAppendWorkloadTest {
  @Test
  void elementsAreUniquePerKeyAndNumberedInGenerationOrder() {
    List<List<List<ProgramOp>>> w = ListAppendWorkload.generate(new WorkloadSpec(4, 3, 10, 4, 0.3, 5));
    Set<String> seen = new HashSet<>();
    long[] last = new long[3];
    for (List<List<ProgramOp>> session : w) {
      for (List<ProgramOp> txn : session) {
        assertThat(txn).hasSize(4);
        for (ProgramOp op : txn) {
          if (op.kind() == OpKind.APPEND) {
            assertThat(seen.add(op.key() + "=" + op.value())).isTrue();
            int k = Integer.parseInt(op.key().substring(1));
            assertThat(op.value()).isEqualTo(++last[k]);
          } else {
            assertThat(op).isEqualTo(ProgramOp.readList(op.key()));
          }
        }
      }
    }
  }

  @Test
  void touchesTheSameKeysAsTheRegisterWorkloadOfTheSameSpec() {
    WorkloadSpec spec = new WorkloadSpec(2, 3, 2, 2, 0.5, 9);

    assertThat(ListAppendWorkload.generate(spec)).isEqualTo(List.of(
        List.of(List.of(ProgramOp.append("x1", 1), ProgramOp.append("x0", 1)),
            List.of(ProgramOp.append("x1", 2), ProgramOp.readList("x1"))),
        List.of(List.of(ProgramOp.append("x2", 1), ProgramOp.readList("x2")),
            List.of(ProgramOp.append("x1", 3), ProgramOp.append("x1", 4)))));
    assertThat(RegisterWorkload.generate(spec)).isEqualTo(List.of(
        List.of(List.of(ProgramOp.write("x1", 1), ProgramOp.write("x0", 1)),
            List.of(ProgramOp.write("x1", 2), ProgramOp.read("x1"))),
        List.of(List.of(ProgramOp.write("x2", 1), ProgramOp.read("x2")),
            List.of(ProgramOp.write("x1", 3), ProgramOp.write("x1", 4)))));
  }

  @Test
  void zipfFavoursTheFirstKey() {
    Random rnd = new Random(1);
    int[] counts = new int[4];
    for (int i = 0; i < 25_000; i++) {
      counts[KeyDistribution.ZIPF.pick(rnd, 4)]++;
    }
    // expected shares 1 : 1/2 : 1/3 : 1/4 of 25/12, i.e. 12000, 6000, 4000, 3000
    assertThat(counts).containsExactly(12024, 6061, 3962, 2953);
    assertThat(KeyDistribution.UNIFORM.pick(new Random(1), 4)).isEqualTo(new Random(1).nextInt(4));
  }
}
