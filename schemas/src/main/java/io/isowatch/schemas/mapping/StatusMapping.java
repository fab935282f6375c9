package io.isowatch.schemas.mapping;

import io.isowatch.schemas.TxnStatus;

/**
 * A transaction's outcome as the records carry it ({@link TxnStatus}) and as the checker's model
 * carries it ({@link io.isowatch.checker.history.TxnStatus}); the two enums have the same three
 * constants and map one to one.
 */
public final class StatusMapping {
  private StatusMapping() {}

  /**
   * @param s a record's status
   * @return the checker's status of the same name ({@code UNKNOWN} for any other)
   */
  public static io.isowatch.checker.history.TxnStatus toChecker(TxnStatus s) {
    switch (s) {
      case COMMITTED:
        return io.isowatch.checker.history.TxnStatus.COMMITTED;
      case ABORTED:
        return io.isowatch.checker.history.TxnStatus.ABORTED;
      default:
        return io.isowatch.checker.history.TxnStatus.UNKNOWN;
    }
  }

  /**
   * @param s the checker's status
   * @return the record's status of the same name ({@code UNKNOWN} for any other)
   */
  public static TxnStatus toAvro(io.isowatch.checker.history.TxnStatus s) {
    switch (s) {
      case COMMITTED:
        return TxnStatus.COMMITTED;
      case ABORTED:
        return TxnStatus.ABORTED;
      default:
        return TxnStatus.UNKNOWN;
    }
  }
}
