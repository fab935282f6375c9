package io.isowatch.checker.history;

import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.longs.LongArrayList;
import it.unimi.dsi.fastutil.objects.Object2IntOpenHashMap;
import it.unimi.dsi.fastutil.objects.ObjectArrayList;
import java.util.Arrays;
import java.util.Objects;

/**
 * A history: sessions of transactions, each a program-ordered list of operations with a status.
 *
 * <p>Stored column by column on primitive arrays so that a history of 10^6 transactions with 8
 * operations each fits in a few hundred MiB. Keys and sessions are interned to dense ints ({@code
 * 0..keyCount()-1}, {@code 0..sessionCount()-1}); transactions are numbered densely in the order
 * they were appended ({@code 0..txnCount()-1}); operations are numbered densely too and the
 * operations of one transaction are contiguous, in program order ({@code po}). Session order
 * ({@code so}) is the order in which a session's transactions were appended.
 *
 * <p>The history is append-only: whole transactions are added with {@link #beginTxn}, the
 * operation methods, then {@link #end}. That is what lets the incremental checkers share it with the
 * batch ones. It is not thread-safe.
 *
 * <p>Values: register values and appended elements are {@code long}s, unique per key (the
 * data-independence assumption of Biswas &amp; Enea, OOPSLA 2019, and of Elle). {@link #NIL} marks a
 * read of a key's initial value; {@link #UNKNOWN_VALUE} a read whose result the client never saw.
 * The {@link WriteIndex} (which operation wrote a value) is maintained as transactions are added.
 */
public final class History {
  /** Value of a register read that returned the key's initial value (no transaction wrote it). */
  public static final long NIL = Long.MIN_VALUE;

  /** Value of a read whose result is not known (Elle's {@code nil} in an {@code :info} operation). */
  public static final long UNKNOWN_VALUE = Long.MIN_VALUE + 1;

  private final KeyNames keys = new KeyNames();
  private final Object2IntOpenHashMap<String> sessionIds = new Object2IntOpenHashMap<>();
  private final ObjectArrayList<String> sessionNames = new ObjectArrayList<>();
  private final ObjectArrayList<IntArrayList> sessionTxns = new ObjectArrayList<>();

  // The columns are plain arrays, longer than their counts, grown by doubling: the checkers read
  // them once or more per operation, and an accessor that is a bounds check and an array load is
  // inlined by both JIT compilers (fastutil's getters, with their exception messages, are too large
  // for C1's inlining, which the launcher uses alone on small files).
  private int txns;
  private int[] txnSession = new int[16];
  private int[] txnSessionIndex = new int[16];
  private long[] txnLabel = new long[16];
  private byte[] txnStatus = new byte[16];
  /** Per transaction its first operation; at {@code txns} the operation count. */
  private int[] txnOpStart = new int[17];

  private int ops;
  private byte[] opKind = new byte[64];
  private int[] opKey = new int[64];
  private long[] opValue = new long[64];
  private int[] opTxn = new int[64];
  /** List reads: at {@code opValue(op)} the length n, then n elements. */
  private final LongArrayList listElems = new LongArrayList();

  private final WriteIndex writes = new WriteIndex();
  private int openTxn = -1;

  /** Creates an empty history. */
  public History() {
    sessionIds.defaultReturnValue(-1);
  }

  /**
   * Makes room for a history of about this size, so that a reader that can tell the size of its
   * file fills arrays of the right length instead of growing them by copies. A hint: the history
   * holds what is appended either way, and grows past these sizes as it would from empty. Before the
   * first key named by a number, it also lets {@link #key(long)} index keys numbered {@code
   * 0..ops-1} by an array.
   *
   * @param txns transactions expected, at least 0
   * @param ops operations expected, at least 0
   * @param writes writes and appends expected, at least 0
   */
  public void reserve(int txns, int ops, int writes) {
    keys.reserve(ops);
    growTxns(txns);
    growOps(ops);
    this.writes.reserve(writes);
  }

  /** Makes the transaction columns hold at least {@code n} transactions. */
  private void growTxns(int n) {
    if (n <= txnSession.length) {
      return;
    }
    txnSession = Arrays.copyOf(txnSession, n);
    txnSessionIndex = Arrays.copyOf(txnSessionIndex, n);
    txnLabel = Arrays.copyOf(txnLabel, n);
    txnStatus = Arrays.copyOf(txnStatus, n);
    txnOpStart = Arrays.copyOf(txnOpStart, n + 1);
  }

  /** Makes the operation columns hold at least {@code n} operations. */
  private void growOps(int n) {
    if (n <= opKind.length) {
      return;
    }
    opKind = Arrays.copyOf(opKind, n);
    opKey = Arrays.copyOf(opKey, n);
    opValue = Arrays.copyOf(opValue, n);
    opTxn = Arrays.copyOf(opTxn, n);
  }

  /** @return the next capacity after {@code length}: double, at most the largest array */
  private static int doubled(int length) {
    return (int) Math.min(Integer.MAX_VALUE - 8, 2L * length + 16);
  }

  // ---------------------------------------------------------------- interning

  /**
   * Interns a key name. A name that is a number in canonical decimal form ({@code Long.toString} of
   * it: {@code "7"}, {@code "-7"}, not {@code "07"}) names the same key as that number given to
   * {@link #key(long)}.
   *
   * @param name the key as the source names it (a number, a table row, ...)
   * @return its dense id, {@code 0..keyCount()-1}
   */
  public int key(String name) {
    return keys.key(name);
  }

  /**
   * Interns a key named by a number: the key {@link #key(String)} gives for {@code
   * Long.toString(number)}, without making that string (the readers of numeric formats).
   *
   * @param number the key's number
   * @return its dense id, {@code 0..keyCount()-1}
   */
  public int key(long number) {
    return keys.key(number);
  }

  /**
   * Interns a session name.
   *
   * @param name the session (client, process, connection) as the source names it
   * @return its dense id, {@code 0..sessionCount()-1}
   */
  public int session(String name) {
    int id = sessionIds.getInt(name);
    if (id < 0) {
      id = sessionNames.size();
      sessionIds.put(name, id);
      sessionNames.add(name);
      sessionTxns.add(new IntArrayList());
    }
    return id;
  }

  // ---------------------------------------------------------------- appending

  /**
   * Starts a transaction at the end of its session.
   *
   * @param session a session id from {@link #session(String)}
   * @param label the transaction's name in the source (Plume's or Cobra's transaction id, Elle's
   *     index); witnesses print it as {@code T<label>}
   * @return the new transaction's id
   * @throws IllegalStateException if another transaction is still open
   * @throws IndexOutOfBoundsException if the session id is unknown
   */
  public int beginTxn(int session, long label) {
    if (openTxn >= 0) {
      throw new IllegalStateException("transaction T" + txnLabel[openTxn] + " is still open");
    }
    IntArrayList sessionOrder = sessionTxns.get(session);
    int t = txns;
    if (t == txnSession.length) {
      growTxns(doubled(t));
    }
    txnSession[t] = session;
    txnSessionIndex[t] = sessionOrder.size();
    sessionOrder.add(t);
    txnLabel[t] = label;
    txnStatus[t] = (byte) TxnStatus.UNKNOWN.ordinal();
    txnOpStart[t + 1] = ops;
    txns = t + 1;
    openTxn = t;
    return t;
  }

  /**
   * Adds {@code read(key) -> value} to the open transaction.
   *
   * @param key a key id
   * @param value the value read, {@link #NIL} for the initial value, {@link #UNKNOWN_VALUE} if not seen
   * @return the operation id
   * @throws IllegalStateException if no transaction is open
   */
  public int read(int key, long value) {
    return addOp(OpKind.READ, key, value);
  }

  /**
   * Adds {@code write(key, value)} to the open transaction.
   *
   * @return the operation id
   * @throws IllegalStateException if no transaction is open
   * @throws IllegalArgumentException if {@code value} was already written to {@code key} by another
   *     operation (values must be unique per key) or is one of the reserved values
   */
  public int write(int key, long value) {
    return addWrite(OpKind.WRITE, key, value);
  }

  /**
   * Adds {@code append(key, element)} to the open transaction.
   *
   * @return the operation id
   * @throws IllegalStateException if no transaction is open
   * @throws IllegalArgumentException if {@code element} was already appended to {@code key}
   */
  public int append(int key, long element) {
    return addWrite(OpKind.APPEND, key, element);
  }

  /**
   * Adds {@code read(key) -> [elements[from] .. elements[to-1]]} to the open transaction.
   *
   * @param elements the list read, oldest element first
   * @return the operation id
   * @throws IllegalStateException if no transaction is open
   */
  public int readList(int key, long[] elements, int from, int to) {
    int op = addOp(OpKind.READ_LIST, key, listElems.size());
    listElems.add(to - from);
    listElems.addElements(listElems.size(), elements, from, to - from);
    return op;
  }

  /**
   * Adds a list read whose result the client never saw.
   *
   * @return the operation id
   */
  public int readListUnknown(int key) {
    return addOp(OpKind.READ_LIST, key, UNKNOWN_VALUE);
  }

  /**
   * Closes the open transaction.
   *
   * @param status its outcome
   * @return the transaction id
   * @throws IllegalStateException if no transaction is open
   */
  public int end(TxnStatus status) {
    int t = requireOpen();
    txnStatus[t] = (byte) status.ordinal();
    openTxn = -1;
    return t;
  }

  private int addWrite(byte kind, int key, long value) {
    if (value == NIL || value == UNKNOWN_VALUE) {
      throw new IllegalArgumentException("value " + value + " is reserved");
    }
    if (openTxn < 0 || key < 0 || key >= keys.count()) {
      // addOp throws, after the duplicate check as for any write
      requireFirstWrite(key, value, writes.writerOf(key, value));
      return addOp(kind, key, value);
    }
    int op = ops;
    requireFirstWrite(key, value, writes.putIfAbsent(key, value, op));
    return addOp(kind, key, value);
  }

  private void requireFirstWrite(int key, long value, int prior) {
    if (prior >= 0) {
      throw new IllegalArgumentException(
          "value " + value + " written twice to key " + keyName(key) + " (first by T"
              + txnLabel[opTxn[prior]] + "); values must be unique per key");
    }
  }

  private int addOp(byte kind, int key, long value) {
    int t = requireOpen();
    if (key < 0 || key >= keys.count()) {
      throw new IndexOutOfBoundsException("unknown key id " + key);
    }
    int op = ops;
    if (op == opKind.length) {
      growOps(doubled(op));
    }
    opKind[op] = kind;
    opKey[op] = key;
    opValue[op] = value;
    opTxn[op] = t;
    ops = op + 1;
    txnOpStart[t + 1] = ops;
    return op;
  }

  private int requireOpen() {
    if (openTxn < 0) {
      throw new IllegalStateException("no open transaction");
    }
    return openTxn;
  }

  // ---------------------------------------------------------------- reading

  /** @return the number of transactions, including an open one */
  public int txnCount() {
    return txns;
  }

  /** @return the transaction still open (begun, not ended), or -1 */
  public int openTxn() {
    return openTxn;
  }

  /** @return the number of operations */
  public int opCount() {
    return ops;
  }

  /** @return the number of distinct sessions */
  public int sessionCount() {
    return sessionNames.size();
  }

  /** @return the number of distinct keys */
  public int keyCount() {
    return keys.count();
  }

  /** @return the key's name in the source */
  public String keyName(int key) {
    return keys.name(key);
  }

  /** @return the session's name in the source */
  public String sessionName(int session) {
    return sessionNames.get(session);
  }

  /** @return the transactions of the session in session order ({@code so}); do not modify */
  public IntArrayList sessionTxns(int session) {
    return sessionTxns.get(session);
  }

  /** @return the session of transaction {@code t} */
  public int sessionOf(int t) {
    return txnSession[Objects.checkIndex(t, txns)];
  }

  /** @return the position of {@code t} in its session, 0 for the first */
  public int sessionIndex(int t) {
    return txnSessionIndex[Objects.checkIndex(t, txns)];
  }

  /** @return the transaction's label in the source (printed as {@code T<label>}) */
  public long label(int t) {
    return txnLabel[Objects.checkIndex(t, txns)];
  }

  /** @return the transaction's status ({@link TxnStatus#UNKNOWN} while it is open) */
  public TxnStatus status(int t) {
    return TxnStatus.ofOrdinal(txnStatus[Objects.checkIndex(t, txns)]);
  }

  /** @return the id of the transaction's first operation */
  public int opStart(int t) {
    return txnOpStart[Objects.checkIndex(t, txns)];
  }

  /** @return one past the id of the transaction's last operation */
  public int opEnd(int t) {
    return txnOpStart[Objects.checkIndex(t, txns) + 1];
  }

  /** @return the operation's kind, a constant of {@link OpKind} */
  public byte opKind(int op) {
    return opKind[Objects.checkIndex(op, ops)];
  }

  /** @return the operation's key id */
  public int opKey(int op) {
    return opKey[Objects.checkIndex(op, ops)];
  }

  /**
   * @return the value written or read ({@link #NIL}, {@link #UNKNOWN_VALUE} possible for reads);
   *     for {@link OpKind#READ_LIST} use {@link #listLength} and {@link #listElement} instead
   */
  public long opValue(int op) {
    return opValue[Objects.checkIndex(op, ops)];
  }

  /** @return the transaction that holds the operation */
  public int opTxn(int op) {
    return opTxn[Objects.checkIndex(op, ops)];
  }

  /** @return whether a {@link OpKind#READ_LIST} operation's result is known */
  public boolean listKnown(int op) {
    return opValue(op) != UNKNOWN_VALUE;
  }

  /**
   * @return the length of the list read by a {@link OpKind#READ_LIST} operation with a known result
   */
  public int listLength(int op) {
    return (int) listElems.getLong((int) opValue(op));
  }

  /**
   * @param i position in the list, {@code 0..listLength(op)-1}, oldest first
   * @return the element at that position
   */
  public long listElement(int op, int i) {
    return listElems.getLong((int) opValue(op) + 1 + i);
  }

  /** @return which operation wrote or appended which value, per key */
  public WriteIndex writes() {
    return writes;
  }

  /** @return whether the transaction is committed */
  public boolean committed(int t) {
    return txnStatus[Objects.checkIndex(t, txns)] == TxnStatus.COMMITTED.ordinal();
  }
}
