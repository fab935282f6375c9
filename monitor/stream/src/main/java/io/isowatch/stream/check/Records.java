package io.isowatch.stream.check;

import io.isowatch.checker.history.History;
import io.isowatch.checker.history.OpKind;
import io.isowatch.checker.window.RejectedTransactionException;
import io.isowatch.checker.window.WindowTxn;
import io.isowatch.schemas.EventTimes;
import io.isowatch.schemas.Operation;
import io.isowatch.schemas.Transaction;
import io.isowatch.schemas.mapping.StatusMapping;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Conversions between the Avro records of {@code schemas/} and the window checker's types.
 * Times: Avro {@code timestamp-micros} fields are {@link Instant}s, the checker's are microseconds
 * since the epoch ({@link EventTimes}).
 */
final class Records {
  private Records() {}

  /**
   * @param t a transaction record; its event time is its {@code endTime}
   * @return the checker's view of it
   * @throws RejectedTransactionException for a write or append whose value is not a long, a read
   *     whose value is neither null, a long nor a list, a list with a null element, and whatever
   *     {@link WindowTxn.Builder#build()} refuses
   */
  static WindowTxn toWindow(Transaction t) {
    WindowTxn.Builder b = WindowTxn.builder(t.getTxnId(), t.getSessionId(), EventTimes.micros(t.getEndTime()), StatusMapping.toModel(t.getStatus()));
    List<Operation> ops = t.getOps();
    for (int i = 0; i < ops.size(); i++) {
      Operation op = ops.get(i);
      Object v = op.getValue();
      switch (op.getKind()) {
        case READ:
          if (v == null) {
            b.read(op.getKey(), History.NIL);
          } else if (v instanceof Long) {
            b.read(op.getKey(), (Long) v);
          } else if (v instanceof List<?>) {
            b.readList(op.getKey(), elements(t, i, (List<?>) v));
          } else {
            throw bad(t, i, "reads a value of type " + v.getClass().getSimpleName());
          }
          break;
        case WRITE:
          if (!(v instanceof Long)) {
            throw bad(t, i, "writes " + shape(v) + "; a write needs a long value");
          }
          b.write(op.getKey(), (Long) v);
          break;
        default:
          if (!(v instanceof Long)) {
            throw bad(t, i, "appends " + shape(v) + "; an append needs a long element");
          }
          b.append(op.getKey(), (Long) v);
      }
    }
    return b.build();
  }

  private static long[] elements(Transaction t, int i, List<?> list) {
    long[] out = new long[list.size()];
    for (int j = 0; j < out.length; j++) {
      Object e = list.get(j);
      if (!(e instanceof Long)) {
        throw bad(t, i, "reads a list whose element " + j + " is " + shape(e));
      }
      out[j] = (Long) e;
    }
    return out;
  }

  private static String shape(Object v) {
    return v == null ? "null" : v instanceof List<?> ? "a list" : "a " + v.getClass().getSimpleName();
  }

  private static RejectedTransactionException bad(Transaction t, int i, String what) {
    return new RejectedTransactionException(RejectedTransactionException.BAD_VALUE,
        "operation " + i + " of " + t.getTxnId() + " " + what);
  }

  /**
   * @return the checker's transaction as a {@link Transaction} record of {@code historyId}, as the
   *     checker's stores keep it: {@code txnSeq} 0 and {@code beginTime} = {@code endTime} = its
   *     event time (the checker does not use them), no source
   */
  static Transaction toAvro(String historyId, WindowTxn t) {
    Instant at = EventTimes.instant(t.eventTime());
    return new Transaction(historyId, t.session(), t.id(), 0L, StatusMapping.toAvro(t.status()), ops(t), at, at, null);
  }

  private static List<Operation> ops(WindowTxn t) {
    List<Operation> ops = new ArrayList<>(t.opCount());
    for (int i = 0; i < t.opCount(); i++) {
      switch (t.kind(i)) {
        case OpKind.READ:
          ops.add(new Operation(io.isowatch.schemas.OpKind.READ, t.key(i),
              t.value(i) == History.NIL ? null : (Object) t.value(i)));
          break;
        case OpKind.READ_LIST: {
          List<Long> list = new ArrayList<>(t.listLength(i));
          for (int j = 0; j < t.listLength(i); j++) {
            list.add(t.listElement(i, j));
          }
          ops.add(new Operation(io.isowatch.schemas.OpKind.READ, t.key(i), list));
          break;
        }
        case OpKind.WRITE:
          ops.add(new Operation(io.isowatch.schemas.OpKind.WRITE, t.key(i), t.value(i)));
          break;
        default:
          ops.add(new Operation(io.isowatch.schemas.OpKind.APPEND, t.key(i), t.value(i)));
      }
    }
    return ops;
  }
}
