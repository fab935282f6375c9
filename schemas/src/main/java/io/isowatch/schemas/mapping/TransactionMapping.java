package io.isowatch.schemas.mapping;

import static io.isowatch.schemas.OpKind.APPEND;
import static io.isowatch.schemas.OpKind.READ;
import static io.isowatch.schemas.OpKind.WRITE;

import io.isowatch.checker.history.History;
import io.isowatch.checker.history.OpKind;
import io.isowatch.checker.window.RejectedTransactionException;
import io.isowatch.checker.window.WindowTxn;
import io.isowatch.schemas.EventTimes;
import io.isowatch.schemas.Operation;
import io.isowatch.schemas.Transaction;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@link Transaction} record to and from the checker's model: a {@link WindowTxn} (the checker
 * stage's input and the witnesses' transactions) or a transaction of a {@link History} (replay, the
 * probe's history).
 *
 * <p>Operations ({@code docs/events.md}, {@code Operation.avsc}): a {@code READ} whose value is null
 * is a register read of the initial value ({@link History#NIL}), a long a register read, a list a
 * list read ({@link OpKind#READ_LIST}, oldest element first); {@code WRITE} and {@code APPEND} carry
 * a long and map one to one. In this class {@code READ}, {@code WRITE} and {@code APPEND} alone are
 * the record's kinds (imported statically); the checker's are written {@code OpKind.READ} and so on,
 * {@link OpKind} being the checker's. Times:
 * the records' {@code timestamp-micros} are {@link Instant}s, the checker's microseconds since the
 * epoch ({@link EventTimes}).
 */
public final class TransactionMapping {
  private TransactionMapping() {}

  /**
   * @param t a transaction record; its event time is its {@code endTime}
   * @return the checker's view of it
   * @throws RejectedTransactionException for a write or append whose value is not a long, a read
   *     whose value is neither null, a long nor a list, a list with a null element, and whatever
   *     {@link WindowTxn.Builder#build()} refuses
   */
  public static WindowTxn toWindow(Transaction t) {
    WindowTxn.Builder b = WindowTxn.builder(t.getTxnId(), t.getSessionId(), EventTimes.micros(t.getEndTime()),
        StatusMapping.toChecker(t.getStatus()));
    decode(t, new OperationSink() {
      @Override
      public void read(String key, long value) {
        b.read(key, value);
      }

      @Override
      public void readList(String key, long[] elements) {
        b.readList(key, elements);
      }

      @Override
      public void write(String key, long value) {
        b.write(key, value);
      }

      @Override
      public void append(String key, long element) {
        b.append(key, element);
      }
    });
    return b.build();
  }

  /**
   * Adds a transaction record at the end of its session (by {@code sessionId}, added if new) in a
   * history, as a closed transaction.
   *
   * @param t a transaction record
   * @param label the transaction's label in the history ({@link History#beginTxn})
   * @param into the history, with no open transaction
   * @return the transaction's id in the history
   * @throws RejectedTransactionException for an operation whose value has the wrong shape, as
   *     {@link #toWindow}; the transaction is then left open
   * @throws IllegalArgumentException if the transaction writes a value already written to its key
   *     (values must be unique per key) or a reserved value ({@link History#write})
   * @throws IllegalStateException if the history has an open transaction
   */
  public static int addToHistory(Transaction t, long label, History into) {
    into.beginTxn(into.session(t.getSessionId()), label);
    decode(t, new OperationSink() {
      @Override
      public void read(String key, long value) {
        into.read(into.key(key), value);
      }

      @Override
      public void readList(String key, long[] elements) {
        into.readList(into.key(key), elements, 0, elements.length);
      }

      @Override
      public void write(String key, long value) {
        into.write(into.key(key), value);
      }

      @Override
      public void append(String key, long element) {
        into.append(into.key(key), element);
      }
    });
    return into.end(StatusMapping.toChecker(t.getStatus()));
  }

  /**
   * @return the checker's transaction as a {@link Transaction} record of {@code historyId}, as the
   *     checker's stores keep it: {@code txnSeq} 0 and {@code beginTime} = {@code endTime} = its
   *     event time (the checker does not use them), no source
   */
  public static Transaction toAvro(String historyId, WindowTxn t) {
    Instant at = EventTimes.instant(t.eventTime());
    return new Transaction(historyId, t.session(), t.id(), 0L, StatusMapping.toAvro(t.status()), operations(t), at,
        at, null);
  }

  /** @return the transaction's operations as records, in program order */
  public static List<Operation> operations(WindowTxn t) {
    List<Operation> ops = new ArrayList<>(t.opCount());
    for (int i = 0; i < t.opCount(); i++) {
      ops.add(operation(t.kind(i), t.key(i), t.value(i), t.kind(i) == OpKind.READ_LIST ? t.list(i) : null));
    }
    return ops;
  }

  /**
   * @param h a history
   * @param t one of its transactions
   * @return the transaction's operations as records, in program order, except the reads whose result
   *     the history does not know ({@link History#UNKNOWN_VALUE}, an unknown list): the schema cannot
   *     represent them, so they are left out (the caller counts them by the difference in size)
   */
  public static List<Operation> operations(History h, int t) {
    List<Operation> ops = new ArrayList<>(h.opEnd(t) - h.opStart(t));
    for (int op = h.opStart(t); op < h.opEnd(t); op++) {
      byte kind = h.opKind(op);
      long[] list = null;
      if (kind == OpKind.READ_LIST) {
        if (!h.listKnown(op)) {
          continue;
        }
        list = new long[h.listLength(op)];
        for (int i = 0; i < list.length; i++) {
          list[i] = h.listElement(op, i);
        }
      } else if (kind == OpKind.READ && h.opValue(op) == History.UNKNOWN_VALUE) {
        continue;
      }
      ops.add(operation(kind, h.keyName(h.opKey(op)), h.opValue(op), list));
    }
    return ops;
  }

  /**
   * @param kind a constant of the checker's {@link OpKind}
   * @param key the key
   * @param value a register read's value ({@link History#NIL} for the initial one), or the value
   *     written or appended
   * @param list a list read's elements, oldest first; unused for the other kinds
   * @return the operation as a record
   */
  static Operation operation(byte kind, String key, long value, long[] list) {
    switch (kind) {
      case OpKind.READ:
        return new Operation(READ, key, value == History.NIL ? null : (Object) value);
      case OpKind.READ_LIST: {
        List<Long> elements = new ArrayList<>(list.length);
        for (long e : list) {
          elements.add(e);
        }
        return new Operation(READ, key, elements);
      }
      case OpKind.WRITE:
        return new Operation(WRITE, key, value);
      default:
        return new Operation(APPEND, key, value);
    }
  }

  /** Where {@link #decode} puts a record's operations: a {@link WindowTxn.Builder} or a {@link History}. */
  private interface OperationSink {
    void read(String key, long value);

    void readList(String key, long[] elements);

    void write(String key, long value);

    void append(String key, long element);
  }

  private static void decode(Transaction t, OperationSink sink) {
    List<Operation> ops = t.getOps();
    for (int i = 0; i < ops.size(); i++) {
      Operation op = ops.get(i);
      Object v = op.getValue();
      switch (op.getKind()) {
        case READ:
          if (v == null) {
            sink.read(op.getKey(), History.NIL);
          } else if (v instanceof Long) {
            sink.read(op.getKey(), (Long) v);
          } else if (v instanceof List<?>) {
            sink.readList(op.getKey(), elements(t, i, (List<?>) v));
          } else {
            throw bad(t, i, "reads a value of type " + v.getClass().getSimpleName());
          }
          break;
        case WRITE:
          if (!(v instanceof Long)) {
            throw bad(t, i, "writes " + shape(v) + "; a write needs a long value");
          }
          sink.write(op.getKey(), (Long) v);
          break;
        default:
          if (!(v instanceof Long)) {
            throw bad(t, i, "appends " + shape(v) + "; an append needs a long element");
          }
          sink.append(op.getKey(), (Long) v);
      }
    }
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
}
