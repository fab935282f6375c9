package io.isowatch.schemas;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.apache.avro.Schema;
import org.junit.jupiter.api.Test;

/** {@link TrustedClasses#ALL} names exactly the named types of the five top-level schemas. */
class TrustedClassesTest {

  @Test
  void everyNamedTypeIsTrustedAndNothingElse() {
    Set<String> named = new TreeSet<>();
    for (Schema s : List.of(TxnEvent.getClassSchema(), Transaction.getClassSchema(),
        Violation.getClassSchema(), DeadLetter.getClassSchema(), SourceWatermark.getClassSchema())) {
      collectNamed(s, named);
    }
    List<String> trusted = new ArrayList<>();
    TrustedClasses.ALL.forEach(c -> trusted.add(c.getName()));

    assertThat(trusted).containsExactlyInAnyOrderElementsOf(named);
    assertThat(named).containsExactly(
        "io.isowatch.schemas.DeadLetter", "io.isowatch.schemas.EdgeType",
        "io.isowatch.schemas.EventKind", "io.isowatch.schemas.Level",
        "io.isowatch.schemas.OpKind", "io.isowatch.schemas.Operation",
        "io.isowatch.schemas.Source", "io.isowatch.schemas.SourceWatermark", "io.isowatch.schemas.Transaction",
        "io.isowatch.schemas.TxnEvent", "io.isowatch.schemas.TxnStatus",
        "io.isowatch.schemas.Violation", "io.isowatch.schemas.Window",
        "io.isowatch.schemas.Witness", "io.isowatch.schemas.WitnessCase", "io.isowatch.schemas.WitnessEdge",
        "io.isowatch.schemas.WitnessOrder", "io.isowatch.schemas.WitnessTransaction");
  }

  private static void collectNamed(Schema s, Set<String> out) {
    switch (s.getType()) {
      case RECORD:
        if (out.add(s.getFullName())) {
          s.getFields().forEach(f -> collectNamed(f.schema(), out));
        }
        break;
      case ENUM:
      case FIXED:
        out.add(s.getFullName());
        break;
      case ARRAY:
        collectNamed(s.getElementType(), out);
        break;
      case MAP:
        collectNamed(s.getValueType(), out);
        break;
      case UNION:
        s.getTypes().forEach(t -> collectNamed(t, out));
        break;
      default:
        break;
    }
  }
}
