package io.isowatch.schemas.mapping;

import static org.assertj.core.api.Assertions.assertThat;

import io.isowatch.checker.finding.Finding;
import io.isowatch.checker.history.History;
import io.isowatch.checker.history.OpKind;
import io.isowatch.checker.history.TxnStatus;
import io.isowatch.checker.level.Anomaly;
import io.isowatch.checker.level.Level;
import io.isowatch.checker.window.WindowViolation;
import io.isowatch.checker.witness.EdgeType;
import io.isowatch.schemas.Violation;
import io.isowatch.schemas.serde.RecordCodec;
import java.util.List;
import org.junit.jupiter.api.Test;

class ViolationMappingTest {
  private static final Finding FINDING = new Finding(Anomaly.G_SINGLE, Level.SNAPSHOT_ISOLATION,
      "cycle T1 -> T2 -> T1 (2 edges, 1 inferred commit order)",
      List.of(
          new Finding.Txn("T1", "s1", TxnStatus.COMMITTED, List.of(
              Finding.Op.of(OpKind.READ, "x", History.NIL, null),
              Finding.Op.of(OpKind.WRITE, "y", 2, null))),
          new Finding.Txn("T2", "s2", TxnStatus.UNKNOWN, List.of(
              Finding.Op.of(OpKind.READ_LIST, "k", 0, List.of(4L, 5L)),
              Finding.Op.of(OpKind.APPEND, "k", 6, null))),
          Finding.Txn.initial()),
      List.of(),
      List.of(
          new Finding.Arrow("T1", "T2", EdgeType.RW, null, "x", null, null, "T1 read x = init and so did not see T2's write"),
          new Finding.Arrow("T2", "T1", EdgeType.CO, null, "y", 2L, null, "T2 precedes T1 in commit order because ...")),
      List.of(new Finding.Arrow("T_init", "T1", EdgeType.WR, null, "x", null, null, "T1 read x = init from T_init")));

  @Test
  void aFindingComesBackFromItsRecord() {
    WindowViolation v = new WindowViolation("abc", null, FINDING, 10, 20, 3, 20, 7);

    Violation record = ViolationMapping.toAvro("demo", v, 25);
    Violation decoded = (Violation) RecordCodec.decode(RecordCodec.encode(record)).record();

    assertThat(ViolationMapping.finding(decoded)).isEqualTo(FINDING);
    assertThat(decoded.getWitness().getSupport()).hasSize(1);
    assertThat(decoded.getWitness().getTransactions().get(2).getSessionId()).isEmpty();
    assertThat(FINDING.txns().get(1).ops()).extracting(Finding.Op::text).containsExactly("r(k)=[.., 5]", "append(k,6)");
  }

  @Test
  void aRecordWithoutSummaryGetsItsCycle() {
    Violation record = ViolationMapping.toAvro("demo", new WindowViolation("abc", null, FINDING, 10, 20, 3, 20, 7), 25);
    record.setSummary(null);

    assertThat(ViolationMapping.finding(record).summary()).isEqualTo("cycle T1 -> T2 -> T1 (2 edges)");
  }
}
