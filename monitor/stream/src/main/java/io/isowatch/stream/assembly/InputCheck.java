package io.isowatch.stream.assembly;

import io.isowatch.schemas.EventKind;
import io.isowatch.schemas.Operation;
import io.isowatch.schemas.Transaction;
import io.isowatch.schemas.TxnEvent;
import io.isowatch.stream.topology.MonitorConfig.Limits;
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
    String what = kind + " of " + txn + " at opIndex " + i;
    switch (kind) {
      case BEGIN:
      case COMMIT:
      case ABORT:
        if (kind == EventKind.BEGIN && i != 0) {
          return new Rejection("bad-event", what + ": BEGIN is always opIndex 0");
        }
        if (kind != EventKind.BEGIN && i == 0) {
          return new Rejection("bad-event", what + ": opIndex 0 is BEGIN's");
        }
        if (kind != EventKind.BEGIN && i - 1L > limits.maxOpsPerTransaction()) {
          return new Rejection("too-many-operations", what + " ends a transaction of " + (i - 1)
              + " operations, the limit is " + limits.maxOpsPerTransaction());
        }
        if (e.getKey() != null) {
          return new Rejection("bad-event", what + " carries a key");
        }
        if (e.getValue() != null) {
          return new Rejection("bad-event", what + " carries a value");
        }
        return null;
      default:
        if (i == 0) {
          return new Rejection("bad-event", what + ": opIndex 0 is BEGIN's");
        }
        if (i > limits.maxOpsPerTransaction()) {
          return new Rejection("too-many-operations", what + " is past the limit of "
              + limits.maxOpsPerTransaction() + " operations per transaction");
        }
        return operation(what, kind.name(), e.getKey(), e.getValue(), limits);
    }
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
      bad = operation(op.getKind() + " of " + t.getTxnId() + " at position " + i, op.getKind().name(),
          op.getKey(), op.getValue(), limits);
      if (bad != null) {
        return bad;
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
    int bytes = value.getBytes(StandardCharsets.UTF_8).length;
    if (bytes > limits.maxKeyBytes()) {
      return new Rejection("oversized-field", field + " is " + bytes + " bytes, the limit is " + limits.maxKeyBytes());
    }
    if (value.indexOf('\0') >= 0) {
      return new Rejection("bad-field", field + " " + quote(value) + " contains a NUL character");
    }
    return null;
  }

  private static Rejection operation(String what, String kind, String key, Object value, Limits limits) {
    if (key == null) {
      return new Rejection("bad-event", what + " has no key");
    }
    int bytes = key.getBytes(StandardCharsets.UTF_8).length;
    if (bytes > limits.maxKeyBytes()) {
      return new Rejection("oversized-field", what + ": key is " + bytes + " bytes, the limit is " + limits.maxKeyBytes());
    }
    if (kind.equals("READ")) {
      if (value instanceof List<?> list && list.size() > limits.maxListLength()) {
        return new Rejection("oversized-field", what + ": the list read has " + list.size()
            + " elements, the limit is " + limits.maxListLength());
      }
      return null;
    }
    if (value == null) {
      return new Rejection("bad-event", what + " has no value");
    }
    if (!(value instanceof Long)) {
      return new Rejection("bad-event", what + " has a list value, " + kind + " takes one long");
    }
    return null;
  }

  /** @return {@code s} in double quotes, cut to 80 characters; {@code null} for null */
  static String quote(String s) {
    if (s == null) {
      return "null";
    }
    return "\"" + (s.length() > EXCERPT ? s.substring(0, EXCERPT) + "..." : s) + "\"";
  }
}
