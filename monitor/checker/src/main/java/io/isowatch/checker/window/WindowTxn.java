package io.isowatch.checker.window;

import io.isowatch.checker.finding.Finding;
import io.isowatch.checker.history.History;
import io.isowatch.checker.history.OpKind;
import io.isowatch.checker.history.TxnStatus;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * One ended transaction as the {@link WindowChecker} receives it, and as a witness shows it:
 * immutable, operations stored column by column (no object per operation).
 *
 * <p>Operation kinds are {@link OpKind}'s: {@code READ} (a register read; value {@link History#NIL}
 * for the initial value), {@code READ_LIST} (a list read, oldest element first), {@code WRITE},
 * {@code APPEND}. Times are microseconds since the epoch.
 */
public final class WindowTxn {
  /** The initial transaction that wrote every key's initial value, as witnesses name it. */
  public static final WindowTxn INITIAL = new WindowTxn(
      "T_init", "", 0, TxnStatus.COMMITTED, new byte[0], new String[0], new long[0], new long[0][]);

  private static final long[] NO_LIST = new long[0];

  private final String id;
  private final String session;
  private final long eventTime;
  private final TxnStatus status;
  private final byte[] kinds;
  private final String[] keys;
  private final long[] values;
  private final long[][] lists;
  private final long[] keyHashes;

  private WindowTxn(String id, String session, long eventTime, TxnStatus status, byte[] kinds,
      String[] keys, long[] values, long[][] lists) {
    this.id = id;
    this.session = session;
    this.eventTime = eventTime;
    this.status = status;
    this.kinds = kinds;
    this.keys = keys;
    this.values = values;
    this.lists = lists;
    this.keyHashes = new long[keys.length];
    for (int i = 0; i < keys.length; i++) {
      keyHashes[i] = Fingerprints.ofKey(keys[i]);
    }
  }

  /**
   * @param id the transaction's globally unique id
   * @param session its session
   * @param eventTime its end time, microseconds since the epoch (orders the read grace period and
   *     the time window)
   * @param status its outcome
   * @return a builder for its operations, in program order
   * @throws NullPointerException if {@code id}, {@code session} or {@code status} is null
   */
  public static Builder builder(String id, String session, long eventTime, TxnStatus status) {
    return new Builder(id, session, eventTime, status);
  }

  /** @return the transaction's id */
  public String id() {
    return id;
  }

  /** @return its session */
  public String session() {
    return session;
  }

  /** @return its end time, microseconds since the epoch */
  public long eventTime() {
    return eventTime;
  }

  /** @return its outcome */
  public TxnStatus status() {
    return status;
  }

  /** @return the number of operations */
  public int opCount() {
    return kinds.length;
  }

  /** @return operation {@code i}'s kind, a constant of {@link OpKind} */
  public byte kind(int i) {
    return kinds[i];
  }

  /** @return operation {@code i}'s key */
  public String key(int i) {
    return keys[i];
  }

  /** @return a 64-bit hash of operation {@code i}'s key ({@link Fingerprints#ofKey}) */
  long keyHash(int i) {
    return keyHashes[i];
  }

  /**
   * @return the value of register read, write or append {@code i} ({@link History#NIL} for a read of
   *     the initial value); undefined for a list read
   */
  public long value(int i) {
    return values[i];
  }

  /** @return the list read by list read {@code i}, oldest first; a copy */
  public long[] list(int i) {
    return lists[i] == null ? NO_LIST : lists[i].clone();
  }

  /** @return list read {@code i}'s own array, not to be modified */
  long[] listRef(int i) {
    return lists[i];
  }

  /** @return the length of list read {@code i} */
  public int listLength(int i) {
    return lists[i].length;
  }

  /** @return element {@code j} of list read {@code i} */
  public long listElement(int i, int j) {
    return lists[i][j];
  }

  /** @return whether any operation is an append or a list read */
  public boolean hasListOps() {
    for (byte k : kinds) {
      if (k == OpKind.APPEND || k == OpKind.READ_LIST) {
        return true;
      }
    }
    return false;
  }

  /**
   * @return the transaction as a {@link Finding} shows it: named by its id, its operations in the
   *     monitor's notation ({@link Finding.Op#of}); {@link Finding.Txn#initial()} for {@link #INITIAL}
   */
  public Finding.Txn finding() {
    if (this == INITIAL) {
      return Finding.Txn.initial();
    }
    List<Finding.Op> ops = new ArrayList<>(kinds.length);
    for (int i = 0; i < kinds.length; i++) {
      List<Long> list = null;
      if (kinds[i] == OpKind.READ_LIST) {
        list = new ArrayList<>(lists[i].length);
        for (long e : lists[i]) {
          list.add(e);
        }
      }
      ops.add(Finding.Op.of(kinds[i], keys[i], values[i], list));
    }
    return new Finding.Txn(id, session, status, ops);
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof WindowTxn)) {
      return false;
    }
    WindowTxn t = (WindowTxn) o;
    return id.equals(t.id) && session.equals(t.session) && eventTime == t.eventTime && status == t.status
        && Arrays.equals(kinds, t.kinds) && Arrays.equals(keys, t.keys) && Arrays.equals(values, t.values)
        && Arrays.deepEquals(lists, t.lists);
  }

  @Override
  public int hashCode() {
    return Objects.hash(id, session, eventTime, status, Arrays.hashCode(kinds));
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder(id).append(" (").append(session).append(", ")
        .append(status.name().toLowerCase(Locale.ROOT)).append("):");
    for (int i = 0; i < kinds.length; i++) {
      sb.append(i == 0 ? " " : ", ").append(OpKind.shortName(kinds[i])).append('(').append(keys[i]).append(")");
      if (kinds[i] == OpKind.READ_LIST) {
        sb.append('=').append(Arrays.toString(lists[i]));
      } else {
        sb.append('=').append(values[i] == History.NIL ? "init" : Long.toString(values[i]));
      }
    }
    return sb.toString();
  }

  /**
   * Collects a transaction's operations in program order; {@link #build()} validates them. Not
   * thread-safe; one transaction per builder.
   */
  public static final class Builder {
    private final String id;
    private final String session;
    private final long eventTime;
    private final TxnStatus status;
    private byte[] kinds = new byte[8];
    private String[] keys = new String[8];
    private long[] values = new long[8];
    private long[][] lists = new long[8][];
    private int n;

    private Builder(String id, String session, long eventTime, TxnStatus status) {
      this.id = Objects.requireNonNull(id, "id");
      this.session = Objects.requireNonNull(session, "session");
      this.eventTime = eventTime;
      this.status = Objects.requireNonNull(status, "status");
    }

    /** Adds {@code read(key) -> value}; {@link History#NIL} for the initial value. */
    public Builder read(String key, long value) {
      return add(OpKind.READ, key, value, null);
    }

    /** Adds {@code read(key) -> elements} (oldest first; the array is copied). */
    public Builder readList(String key, long[] elements) {
      return add(OpKind.READ_LIST, key, 0, elements == null ? null : elements.clone());
    }

    /** Adds {@code write(key, value)}. */
    public Builder write(String key, long value) {
      return add(OpKind.WRITE, key, value, null);
    }

    /** Adds {@code append(key, element)}. */
    public Builder append(String key, long element) {
      return add(OpKind.APPEND, key, element, null);
    }

    private Builder add(byte kind, String key, long value, long[] list) {
      if (n == kinds.length) {
        int m = 2 * n;
        kinds = Arrays.copyOf(kinds, m);
        keys = Arrays.copyOf(keys, m);
        values = Arrays.copyOf(values, m);
        lists = Arrays.copyOf(lists, m);
      }
      kinds[n] = kind;
      keys[n] = key;
      values[n] = value;
      lists[n] = list;
      n++;
      return this;
    }

    /**
     * @return the transaction
     * @throws RejectedTransactionException for an operation with no key ({@code null-key}); a write
     *     or append of a reserved value ({@link History#NIL}, {@link History#UNKNOWN_VALUE}), a
     *     register read of {@link History#UNKNOWN_VALUE}, a list read with no list or with a
     *     reserved element ({@code bad-value}); a (key, value) written twice in the transaction
     *     ({@code duplicate-write})
     */
    public WindowTxn build() {
      for (int i = 0; i < n; i++) {
        String where = "operation " + i + " of " + id;
        if (keys[i] == null) {
          throw new RejectedTransactionException(RejectedTransactionException.NULL_KEY, where + " has no key");
        }
        byte k = kinds[i];
        if (k == OpKind.READ_LIST) {
          if (lists[i] == null) {
            throw new RejectedTransactionException(RejectedTransactionException.BAD_VALUE, where + " reads no list");
          }
          for (long e : lists[i]) {
            if (reserved(e)) {
              throw new RejectedTransactionException(RejectedTransactionException.BAD_VALUE,
                  where + " reads the reserved element " + e);
            }
          }
        } else if (k == OpKind.READ ? values[i] == History.UNKNOWN_VALUE : reserved(values[i])) {
          throw new RejectedTransactionException(RejectedTransactionException.BAD_VALUE,
              where + " uses the reserved value " + values[i]);
        }
        if (OpKind.isWrite(k)) {
          for (int j = 0; j < i; j++) {
            if (OpKind.isWrite(kinds[j]) && values[j] == values[i] && keys[j].equals(keys[i])) {
              throw new RejectedTransactionException(RejectedTransactionException.DUPLICATE_WRITE,
                  where + " writes " + values[i] + " to " + keys[i] + " a second time");
            }
          }
        }
      }
      return new WindowTxn(id, session, eventTime, status, Arrays.copyOf(kinds, n), Arrays.copyOf(keys, n),
          Arrays.copyOf(values, n), Arrays.copyOf(lists, n));
    }

    private static boolean reserved(long v) {
      return v == History.NIL || v == History.UNKNOWN_VALUE;
    }
  }
}
