package io.isowatch.checker.format;

import io.isowatch.checker.history.TxnStatus;
import java.util.Arrays;

/**
 * Recognises a line of an EDN history in the exact shape {@link EdnWriter} writes it, and takes it
 * apart straight from its bytes: the byte path of {@link EdnReader}.
 *
 * <p>The shape: {@code {:type :ok|:fail|:info, :process P, :index N, :value [MOP ...]}}, micro-ops
 * separated by one blank, each {@code [:w K V]}, {@code [:append K V]} or {@code [:r K R]} with
 * {@code R} one of {@code nil}, an integer or {@code [E ...]}; {@code P} and {@code K} a quoted name
 * of printable ASCII without {@code "} or {@code \} (no escapes) or an integer; {@code N}
 * non-negative; integers of 1 to 18 digits without leading zeros. Each such line means the same to
 * {@link EdnParser} and {@link EdnReader}'s text path; {@link #parse} only checks the syntax and
 * records the fields, with no side effect and no object per operation. Not thread-safe; reused line
 * after line.
 */
final class EdnCanonical extends ByteCursor {
  /** {@link #opKind} values. */
  static final byte WRITE = 0;
  static final byte APPEND = 1;
  static final byte READ = 2;
  /** {@link #valueShape} values: {@code nil}, an integer, a vector of integers. */
  static final byte NIL = 0;
  static final byte INTEGER = 1;
  static final byte LIST = 2;

  private static final byte[] TYPE = ascii("{:type :");
  private static final byte[][] TYPE_WORDS = {ascii("ok"), ascii("fail"), ascii("info")};
  private static final TxnStatus[] STATUSES = {TxnStatus.COMMITTED, TxnStatus.ABORTED, TxnStatus.UNKNOWN};
  private static final byte[] PROCESS = ascii(" :process ");
  private static final byte[] INDEX = ascii(", :index ");
  private static final byte[] VALUE = ascii(", :value [");
  private static final byte[] MOP = ascii("[:");
  private static final byte[][] F_WORDS = {ascii("w"), ascii("append"), ascii("r")};
  private static final byte[] NIL_WORD = ascii("nil");

  TxnStatus status;
  /** The process as a slice of the line: a name's characters or an integer's digits. */
  int processFrom;
  int processTo;
  long index;
  int opCount;
  byte[] opKind = new byte[16];
  /** Per operation: its key as a slice of the line, and whether it is a name (else an integer). */
  int[] keyFrom = new int[16];
  int[] keyTo = new int[16];
  boolean[] keyIsName = new boolean[16];
  long[] keyNumber = new long[16];
  byte[] valueShape = new byte[16];
  /** Per operation: its integer value, or for a list the index of its first element in {@link #elems}. */
  long[] value = new long[16];
  /** Per operation: the number of elements of its list. */
  int[] listLength = new int[16];

  /**
   * @param bytes the line's bytes, {@code bytes[from..to)}, without its terminator
   * @return whether the line has the canonical shape; if so, its fields are in this object's fields
   *     (names as slices of {@code bytes}) until the next call
   */
  boolean parse(byte[] bytes, int from, int to) {
    start(bytes, from, to);
    opCount = 0;
    elemCount = 0;
    int type = word(TYPE_WORDS, TYPE, ',');
    if (type < 0 || !literal(PROCESS)) {
      return false;
    }
    status = STATUSES[type];
    processFrom = at < end && b[at] == '"' ? at + 1 : at;
    processTo = nameOrInteger();
    if (processTo < 0 || !literal(INDEX) || !integer() || number < 0 || !literal(VALUE)) {
      return false;
    }
    index = number;
    if (at < end && b[at] == ']') {
      at++;
    } else {
      do {
        if (!operation()) {
          return false;
        }
      } while (separator(' ', ']'));
      if (at > end || b[at - 1] != ']') {
        return false;
      }
    }
    return at == end - 1 && b[at] == '}';
  }

  private boolean operation() {
    int op = opCount;
    if (op == opKind.length) {
      grow();
    }
    int f = word(F_WORDS, MOP, ' ');
    if (f < 0) {
      return false;
    }
    opKind[op] = (byte) f;
    keyIsName[op] = at < end && b[at] == '"';
    keyFrom[op] = keyIsName[op] ? at + 1 : at;
    keyTo[op] = nameOrInteger();
    keyNumber[op] = number;
    if (keyTo[op] < 0 || at >= end || b[at++] != ' ' || !value(op, f == READ)
        || at >= end || b[at++] != ']') {
      return false;
    }
    opCount++;
    return true;
  }

  private boolean value(int op, boolean read) {
    listLength[op] = 0;
    if (read && literal(NIL_WORD)) {
      valueShape[op] = NIL;
    } else if (read && at < end && b[at] == '[') {
      at++;
      valueShape[op] = LIST;
      value[op] = elemCount;
      listLength[op] = integers(' ');
      return listLength[op] >= 0;
    } else if (integer()) {
      valueShape[op] = INTEGER;
      value[op] = number;
    } else {
      return false;
    }
    return true;
  }

  /**
   * Reads a quoted name (the cursor on its opening quote) or an integer (into {@link #number}).
   *
   * @return the end of the name's characters or of the integer's digits, or -1
   */
  private int nameOrInteger() {
    if (at < end && b[at] == '"') {
      at++;
      return name();
    }
    return integer() ? at : -1;
  }

  private void grow() {
    int n = 2 * opKind.length;
    opKind = Arrays.copyOf(opKind, n);
    keyFrom = Arrays.copyOf(keyFrom, n);
    keyTo = Arrays.copyOf(keyTo, n);
    keyIsName = Arrays.copyOf(keyIsName, n);
    keyNumber = Arrays.copyOf(keyNumber, n);
    valueShape = Arrays.copyOf(valueShape, n);
    value = Arrays.copyOf(value, n);
    listLength = Arrays.copyOf(listLength, n);
  }
}
