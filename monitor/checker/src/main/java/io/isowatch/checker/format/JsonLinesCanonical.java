package io.isowatch.checker.format;

import io.isowatch.checker.history.TxnStatus;
import java.util.Arrays;

/**
 * Recognises a line of isowatch JSON lines in the exact shape {@link JsonLinesWriter} writes it, and
 * takes it apart straight from its bytes: the byte path of {@link JsonLinesReader}.
 *
 * <p>The shape: {@code {"session":"S","txn":N,"status":"committed|aborted|unknown","ops":[OP,...]}}
 * with no blanks, each {@code OP} one of {@code {"f":"w"|"append","key":"K","value":N}}, {@code
 * {"f":"r","key":"K"}}, {@code {"f":"r","key":"K","value":null|N|[N,...]}} or {@code
 * {"f":"r","key":"K","list":true}}; names of printable ASCII without {@code "} or {@code \}
 * (so without escapes); integers of 1 to 18 digits, optionally negative, without leading zeros. Each
 * such line is one JSON object that Jackson's token path reads alike; {@link #parse} only checks the
 * syntax and records the fields, with no side effect and no object per operation, and leaves the
 * meaning (reserved values, repeated labels) to the reader. Not thread-safe; reused line after line.
 */
final class JsonLinesCanonical extends ByteCursor {
  /** {@link #opKind} values. */
  static final byte WRITE = 0;
  static final byte APPEND = 1;
  static final byte READ = 2;
  /** {@link #valueShape} values: no value field, {@code null}, an integer, a list, {@code "list":true}. */
  static final byte ABSENT = 0;
  static final byte NULL = 1;
  static final byte INTEGER = 2;
  static final byte LIST = 3;
  static final byte LIST_UNKNOWN = 4;

  private static final byte[] SESSION = ascii("{\"session\":\"");
  private static final byte[] TXN = ascii(",\"txn\":");
  private static final byte[] STATUS = ascii(",\"status\":\"");
  private static final byte[] OPS = ascii(",\"ops\":[");
  private static final byte[] F = ascii("{\"f\":\"");
  private static final byte[] KEY = ascii(",\"key\":\"");
  private static final byte[] VALUE = ascii(",\"value\":");
  private static final byte[] LIST_TRUE = ascii(",\"list\":true}");
  private static final byte[] NULL_WORD = ascii("null");
  private static final byte[][] STATUS_WORDS = {ascii("committed"), ascii("aborted"), ascii("unknown")};
  private static final TxnStatus[] STATUSES = {TxnStatus.COMMITTED, TxnStatus.ABORTED, TxnStatus.UNKNOWN};
  private static final byte[][] F_WORDS = {ascii("w"), ascii("append"), ascii("r")};

  int sessionFrom;
  int sessionTo;
  long label;
  TxnStatus status;
  int opCount;
  byte[] opKind = new byte[16];
  int[] keyFrom = new int[16];
  int[] keyTo = new int[16];
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
    if (!literal(SESSION)) {
      return false;
    }
    sessionFrom = at;
    sessionTo = name();
    if (sessionTo < 0 || !literal(TXN) || !integer()) {
      return false;
    }
    label = number;
    int s = word(STATUS_WORDS, STATUS, '"');
    if (s < 0 || !literal(OPS)) {
      return false;
    }
    status = STATUSES[s];
    if (at < end && b[at] == ']') {
      at++;
    } else {
      do {
        if (!operation()) {
          return false;
        }
      } while (separator(',', ']'));
      if (at > end || b[at - 1] != ']') {
        return false;
      }
    }
    return at == end - 1 && b[at] == '}';
  }

  private boolean operation() {
    int f = word(F_WORDS, F, '"');
    if (f < 0 || !literal(KEY)) {
      return false;
    }
    int op = opCount;
    if (op == opKind.length) {
      grow();
    }
    keyFrom[op] = at;
    keyTo[op] = name();
    if (keyTo[op] < 0) {
      return false;
    }
    opKind[op] = (byte) f;
    listLength[op] = 0;
    if (at < end && b[at] == '}') {
      at++;
      valueShape[op] = ABSENT;
    } else if (f == READ && literal(LIST_TRUE)) {
      valueShape[op] = LIST_UNKNOWN;
    } else if (!literal(VALUE) || !value(op) || at >= end || b[at++] != '}') {
      return false;
    }
    opCount++;
    return true;
  }

  private boolean value(int op) {
    if (literal(NULL_WORD)) {
      valueShape[op] = NULL;
    } else if (at < end && b[at] == '[') {
      at++;
      valueShape[op] = LIST;
      value[op] = elemCount;
      listLength[op] = integers(',');
      return listLength[op] >= 0;
    } else if (integer()) {
      valueShape[op] = INTEGER;
      value[op] = number;
    } else {
      return false;
    }
    return true;
  }

  private void grow() {
    int n = 2 * opKind.length;
    opKind = Arrays.copyOf(opKind, n);
    keyFrom = Arrays.copyOf(keyFrom, n);
    keyTo = Arrays.copyOf(keyTo, n);
    valueShape = Arrays.copyOf(valueShape, n);
    value = Arrays.copyOf(value, n);
    listLength = Arrays.copyOf(listLength, n);
  }
}
