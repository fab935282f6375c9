package io.isowatch.schemas.mapping;

import io.isowatch.schemas.TxnStatus;

/**
 * The one mapping between the Avro {@link TxnStatus} and the checker's {@link
 * io.isowatch.checker.history.TxnStatus}: the same three outcomes under the same names.
 */
public final class StatusMapping {
  private StatusMapping() {}

  /** @return the checker's status of an Avro status */
  public static io.isowatch.checker.history.TxnStatus toModel(TxnStatus s) {
    return switch (s) {
      case COMMITTED -> io.isowatch.checker.history.TxnStatus.COMMITTED;
      case ABORTED -> io.isowatch.checker.history.TxnStatus.ABORTED;
      case UNKNOWN -> io.isowatch.checker.history.TxnStatus.UNKNOWN;
    };
  }

  /** @return the Avro status of a checker status */
  public static TxnStatus toAvro(io.isowatch.checker.history.TxnStatus s) {
    return switch (s) {
      case COMMITTED -> TxnStatus.COMMITTED;
      case ABORTED -> TxnStatus.ABORTED;
      case UNKNOWN -> TxnStatus.UNKNOWN;
    };
  }
}
