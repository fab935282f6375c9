package io.isowatch.stream.assembly;

import io.isowatch.schemas.EventKind;
import io.isowatch.schemas.Operation;
import io.isowatch.schemas.Transaction;
import io.isowatch.schemas.TxnEvent;
import io.isowatch.stream.config.MonitorConfig.Limits;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The checks of one input record that need no state: its size, identifiers present and within the limits,
 * the record key naming the record's session, sequence numbers not negative, and each operation
 * well formed (READ value null, a long or a list; WRITE and APPEND a long; a key on every operation
 * and on no boundary). Each check returns the first {@link Rejection} found, or null.
 */
final class InputCheck {
  private static final int EXCERPT = 80;

  private InputCheck() {}

  /** @return the record key a record of session {@code sessionId} of {@code historyId} must carry */
  static String recordKey(String historyId, String sessionId) {
    return historyId + "/" + sessionId;
  }

  /**
   * @param value the record's value as received, may be null
   * @param limits the configured limits
   * @return an {@code oversized-record} rejection if {@code value} is longer than {@link
   *     Limits#maxRecordBytes()}, else null
   */
  static Rejection size(byte[] value, Limits limits) {
    if (value != null && value.length > limits.maxRecordBytes()) {
      return new Rejection("oversized-record", "the record is " + value.length + " bytes, the limit is "
          + limits.maxRecordBytes() + "; not decoded");
    }
    return null;
  }

  /**
   * @param key the record key
   * @param e the decoded event
   * @param limits the configured limits
   * @return why the event is unusable, or null
   */
  static Rejection event(String key, TxnEvent e, Limits limits) {
    Rejection bad = ids(key, e.getHistoryId(), e.getSessionId(), e.getTxnId(), limits);
    if (bad != null) {
      return bad;
    }
    String txn = e.getTxnId();
    if (e.getTxnSeq() < 0) {
      return new Rejection("negative-sequence", "txnSeq " + e.getTxnSeq() + " of transaction " + txn);
    }
    int i = e.getOpIndex();
    if (i < 0) {
      return new Rejection("negative-sequence", "opIndex " + i + " of transaction " + txn);
    }
    EventKind kind = e.getKind();
    Rejection r;
    switch (kind) {
      case BEGIN:
      case COMMIT:
      case ABORT:
        if (kind == EventKind.BEGIN && i != 0) {
          r = new Rejection("bad-event", ": BEGIN is always opIndex 0");
        } else if (kind != EventKind.BEGIN && i == 0) {
          r = new Rejection("bad-event", ": opIndex 0 is BEGIN's");
        } else if (kind != EventKind.BEGIN && i - 1L > limits.maxOpsPerTransaction()) {
          r = new Rejection("too-many-operations", " ends a transaction of " + (i - 1)
              + " operations, the limit is " + limits.maxOpsPerTransaction());
        } else if (e.getKey() != null) {
          r = new Rejection("bad-event", " carries a key");
        } else if (e.getValue() != null) {
          r = new Rejection("bad-event", " carries a value");
        } else {
          r = null;
        }
        break;
      default:
        if (i == 0) {
          r = new Rejection("bad-event", ": opIndex 0 is BEGIN's");
        } else if (i > limits.maxOpsPerTransaction()) {
          r = new Rejection("too-many-operations", " is past the limit of "
              + limits.maxOpsPerTransaction() + " operations per transaction");
        } else {
          r = operation(kind.name(), e.getKey(), e.getValue(), limits);
        }
    }
    // the event's description is built only for a rejection: this runs for every event
    return r == null ? null : r.about(kind + " of " + txn + " at opIndex " + i);
  }

  /**
   * @param key the record key
   * @param t the decoded transaction
   * @param limits the configured limits
   * @return why the transaction is unusable, or null
   */
  static Rejection transaction(String key, Transaction t, Limits limits) {
    Rejection bad = ids(key, t.getHistoryId(), t.getSessionId(), t.getTxnId(), limits);
    if (bad != null) {
      return bad;
    }
    if (t.getTxnSeq() < 0) {
      return new Rejection("negative-sequence", "txnSeq " + t.getTxnSeq() + " of transaction " + t.getTxnId());
    }
    List<Operation> ops = t.getOps();
    if (ops.size() > limits.maxOpsPerTransaction()) {
      return new Rejection("too-many-operations", "transaction " + t.getTxnId() + " has " + ops.size()
          + " operations, the limit is " + limits.maxOpsPerTransaction());
    }
    for (int i = 0; i < ops.size(); i++) {
      Operation op = ops.get(i);
      bad = operation(op.getKind().name(), op.getKey(), op.getValue(), limits);
      if (bad != null) {
        return bad.about(op.getKind() + " of " + t.getTxnId() + " at position " + i);
      }
    }
    return null;
  }

  private static Rejection ids(String key, String historyId, String sessionId, String txnId, Limits limits) {
    Rejection bad = id("historyId", historyId, limits);
    if (bad == null) {
      bad = id("sessionId", sessionId, limits);
    }
    if (bad == null) {
      bad = id("txnId", txnId, limits);
    }
    if (bad != null) {
      return bad;
    }
    String expected = recordKey(historyId, sessionId);
    if (!expected.equals(key)) {
      return new Rejection("key-mismatch", "record key " + quote(key) + " but the record is of session "
          + quote(expected) + " of transaction " + txnId);
    }
    return null;
  }

  private static Rejection id(String field, String value, Limits limits) {
    if (value.isEmpty()) {
      return new Rejection("bad-field", field + " is empty");
    }
    if (overLimit(value, limits)) {
      return new Rejection("oversized-field", field + " is " + utf8Length(value) + " bytes, the limit is "
          + limits.maxKeyBytes());
    }
    if (value.indexOf('\0') >= 0) {
      return new Rejection("bad-field", field + " " + quote(value) + " contains a NUL character");
    }
    return null;
  }

  /**
   * @return why an operation of {@code kind} is malformed, its detail to follow the operation's
   *     description, or null
   */
  private static Rejection operation(String kind, String key, Object value, Limits limits) {
    if (key == null) {
      return new Rejection("bad-event", " has no key");
    }
    if (overLimit(key, limits)) {
      return new Rejection("oversized-field", ": key is " + utf8Length(key) + " bytes, the limit is " + limits.maxKeyBytes());
    }
    if (kind.equals("READ")) {
      if (value instanceof List<?> list && list.size() > limits.maxListLength()) {
        return new Rejection("oversized-field", ": the list read has " + list.size()
            + " elements, the limit is " + limits.maxListLength());
      }
      return null;
    }
    if (value == null) {
      return new Rejection("bad-event", " has no value");
    }
    if (!(value instanceof Long)) {
      return new Rejection("bad-event", " has a list value, " + kind + " takes one long");
    }
    return null;
  }

  /**
   * @return whether {@code s} is longer than {@link Limits#maxKeyBytes()} in UTF-8; encoded only
   *     when it could be, since a UTF-16 char never takes more than 3 bytes
   */
  private static boolean overLimit(String s, Limits limits) {
    return 3L * s.length() > limits.maxKeyBytes() && utf8Length(s) > limits.maxKeyBytes();
  }

  private static int utf8Length(String s) {
    return s.getBytes(StandardCharsets.UTF_8).length;
  }

  /** @return {@code s} in double quotes, cut to 80 characters; {@code null} for null */
  static String quote(String s) {
    if (s == null) {
      return "null";
    }
    return "\"" + (s.length() > EXCERPT ? s.substring(0, EXCERPT) + "..." : s) + "\"";
  }
}
