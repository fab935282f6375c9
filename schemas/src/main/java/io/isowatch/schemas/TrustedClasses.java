package io.isowatch.schemas;

import java.util.List;
import org.apache.avro.util.ClassSecurityValidator;

/**
 * Tells Avro that isowatch's generated classes may be loaded by name when decoding.
 *
 * <p>Since Avro 1.12.2 every class that Avro resolves from a schema name, including an
 * application's own generated {@code SpecificRecord}s and enums, must be trusted, either through the
 * system properties {@code org.apache.avro.SERIALIZABLE_CLASSES} / {@code SERIALIZABLE_PACKAGES}
 * (read once, when Avro's validator class loads) or through {@link ClassSecurityValidator#setGlobal}
 * (AVRO-4189). {@link #install()} takes the second way and trusts exactly the classes generated from
 * {@code src/main/avro}, nothing else. Call it once before the first {@code fromByteBuffer}, {@code
 * getDecoder()} or datum reader of these classes; the serdes of the streaming module do.
 */
public final class TrustedClasses {
  /** Every class generated from {@code src/main/avro}: 13 records and 5 enums. */
  public static final List<Class<?>> ALL = List.of(
      TxnEvent.class, Transaction.class, Operation.class, Source.class,
      Violation.class, Witness.class, WitnessTransaction.class, WitnessEdge.class, WitnessCase.class, WitnessOrder.class, Window.class,
      DeadLetter.class, SourceWatermark.class,
      EventKind.class, OpKind.class, TxnStatus.class, Level.class, EdgeType.class);

  private static boolean installed;

  private TrustedClasses() {}

  /**
   * Adds {@link #ALL} to Avro's global class-trust predicate, keeping whatever it trusted before.
   * Idempotent and thread-safe.
   */
  public static synchronized void install() {
    if (installed) {
      return;
    }
    ClassSecurityValidator.Builder ours = ClassSecurityValidator.builder();
    ALL.forEach(ours::add);
    ClassSecurityValidator.setGlobal(
        ClassSecurityValidator.composite(ClassSecurityValidator.getGlobal(), ours.build()));
    installed = true;
  }
}
