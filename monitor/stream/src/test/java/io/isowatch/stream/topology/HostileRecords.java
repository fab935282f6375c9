package io.isowatch.stream.topology;

import io.isowatch.schemas.DeadLetter;
import io.isowatch.schemas.EventKind;
import io.isowatch.schemas.Operation;
import io.isowatch.schemas.OpKind;
import io.isowatch.schemas.Transaction;
import io.isowatch.schemas.TxnEvent;
import io.isowatch.schemas.TxnStatus;
import io.isowatch.schemas.serde.RecordCodec;
import io.isowatch.stream.config.MonitorConfig.Limits;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A test fixture: hostile records for the events topic, each with the outcome the monitor must give
 * it. Most are mutations of a valid event of a transaction the session assembler has just emitted
 * (so still remembers, within the duplicate retention); the others are records of histories of
 * their own ({@code hostile-*}), which valid traffic never touches.
 *
 * <p>Deterministic for a seed. Which mutation classes exist, and what each must give, is the table
 * of {@link Mutation}.
 */
final class HostileRecords {
  /** What the monitor must do with a hostile record. */
  enum Outcome {
    /** A dead letter at its offset, of {@link Hostile#reasonClass()}. */
    DEAD_LETTER,
    /** A dead letter at its offset, of any reason: a bit flip that still decodes. */
    DEAD_LETTER_ANY_REASON,
    /** Ignored as an identical copy, counted in {@code isowatch.input.duplicates}. */
    DUPLICATE,
    /** Accepted: a well-formed transaction of a hostile history. */
    ACCEPTED,
    /** Accepted, then given up at the open timeout with an {@code incomplete-transaction} dead letter. */
    INCOMPLETE
  }

  /** The mutation classes, drawn uniformly. */
  enum Mutation {
    EMPTY, TRUNCATED, BIT_FLIP, WRONG_FINGERPRINT, WRONG_TYPE, KEY_MISMATCH, HUGE_KEY, HUGE_ID, HUGE_LIST,
    HUGE_RECORD, NEGATIVE_SEQUENCE, OP_PAST_LIMIT, OP_AFTER_COMMIT, CONFLICTING_COPY, EXACT_COPY,
    TXN_ID_FROM_OTHER_SESSION, COMMIT_OF_UNKNOWN_TXN, THIN_AIR_READ, SESSION_FLOOD, OPEN_FLOOD
  }

  /**
   * A hostile record.
   *
   * @param mutation its class
   * @param key the record key
   * @param value the record value, null for a tombstone
   * @param outcome what the monitor must do with it
   * @param reasonClass the dead letter's reason class for {@link Outcome#DEAD_LETTER}, else null
   * @param txnId for {@link Outcome#ACCEPTED} and {@link Outcome#INCOMPLETE}, the transaction
   * @param endIndex for {@link Outcome#INCOMPLETE}, the opIndex of its COMMIT
   */
  record Hostile(Mutation mutation, String key, byte[] value, Outcome outcome, String reasonClass, String txnId,
      int endIndex) {}

  /** History of the transactions reading values nobody wrote (one session, {@code g}). */
  static final String GHOST = "hostile-ghost";
  /** History whose sessions flood the sessions-per-history limit. */
  static final String SESSIONS = "hostile-sessions";
  /** History whose one session floods the open-transactions limit. */
  static final String OPEN = "hostile-open";
  /**
   * Prefix of the histories of COMMITs of unknown transactions, one session each, as many per
   * history as the sessions-per-history limit allows.
   */
  static final String COMMITS = "hostile-commit-";

  private final SplittableRandom rnd;
  private final Limits limits;
  private int ghosts;
  private int sessions;
  private int open;
  private int commits;
  private int skippedFlips;

  HostileRecords(long seed, Limits limits) {
    this.rnd = new SplittableRandom(seed);
    this.limits = limits;
  }

  /** @return bit flips not sent because they decode to another transaction (see {@link #bitFlip}) */
  int skippedFlips() {
    return skippedFlips;
  }

  /**
   * @param recent the events of a transaction the assembler has just emitted (BEGIN, operations,
   *     COMMIT), in opIndex order
   * @return a hostile record of a random class, or null for a bit flip that is not sent
   */
  Hostile next(List<TxnEvent> recent) {
    Mutation m = Mutation.values()[rnd.nextInt(Mutation.values().length)];
    TxnEvent e = recent.get(rnd.nextInt(recent.size()));
    TxnEvent op = recent.get(1 + rnd.nextInt(recent.size() - 2));
    TxnEvent end = recent.get(recent.size() - 1);
    String key = e.getHistoryId() + "/" + e.getSessionId();
    byte[] bytes = RecordCodec.encode(e);
    switch (m) {
      case EMPTY:
        return dead(m, key, rnd.nextBoolean() ? null : new byte[0], "empty");
      case TRUNCATED: {
        int length = 1 + rnd.nextInt(bytes.length - 1);
        return dead(m, key, Arrays.copyOf(bytes, length),
            length < RecordCodec.HEADER_BYTES ? "truncated" : "bad-body");
      }
      case BIT_FLIP:
        return bitFlip(e, key, bytes);
      case WRONG_FINGERPRINT: {
        byte[] b = bytes.clone();
        do { // a random fingerprint is one of the four known ones with probability 2^-62
          ByteBuffer.wrap(b, 2, 8).order(ByteOrder.LITTLE_ENDIAN).putLong(rnd.nextLong());
        } while (RecordCodec.decode(b).record() != null);
        return dead(m, key, b, "unknown-fingerprint");
      }
      case WRONG_TYPE:
        return dead(m, key, RecordCodec.encode(new DeadLetter(ByteBuffer.wrap(bytes), "t", 0, 0L, "x")), "wrong-type");
      case KEY_MISMATCH:
        return dead(m, e.getHistoryId() + "/not-" + e.getSessionId(), bytes, "key-mismatch");
      case HUGE_KEY:
        return dead(m, key, RecordCodec.encode(with(op, op.getOpIndex(), text(limits.maxKeyBytes() + 1 + rnd.nextInt(1000)),
            op.getValue())), "oversized-field");
      case HUGE_ID: {
        TxnEvent b = copy(e);
        b.setTxnId(text(limits.maxKeyBytes() + 1 + rnd.nextInt(1000)));
        return dead(m, key, RecordCodec.encode(b), "oversized-field");
      }
      case HUGE_LIST: {
        List<Long> list = new ArrayList<>(Collections.nCopies(limits.maxListLength() + 1 + rnd.nextInt(100), 7L));
        return dead(m, key, RecordCodec.encode(kind(with(op, op.getOpIndex(), op.getKey(), list), EventKind.READ)),
            "oversized-field");
      }
      case HUGE_RECORD:
        return dead(m, key, RecordCodec.encode(with(op, op.getOpIndex(), text(limits.maxRecordBytes()), op.getValue())),
            "oversized-record");
      case NEGATIVE_SEQUENCE: {
        TxnEvent b = copy(e);
        if (rnd.nextBoolean()) {
          b.setTxnSeq(-1 - rnd.nextLong(Long.MAX_VALUE));
        } else {
          b.setOpIndex(-1 - rnd.nextInt(Integer.MAX_VALUE));
        }
        return dead(m, key, RecordCodec.encode(b), "negative-sequence");
      }
      case OP_PAST_LIMIT:
        return dead(m, key, RecordCodec.encode(with(op, limits.maxOpsPerTransaction() + 1 + rnd.nextInt(1_000_000),
            op.getKey(), op.getValue())), "too-many-operations");
      case OP_AFTER_COMMIT:
        return dead(m, key, RecordCodec.encode(with(op, end.getOpIndex() + 1 + rnd.nextInt(10), op.getKey(),
            op.getValue())), "op-after-end");
      case CONFLICTING_COPY: {
        Object other = op.getValue() instanceof Long v ? (Object) (v + 1) : List.of(-1L);
        return dead(m, key, RecordCodec.encode(with(op, op.getOpIndex(), op.getKey(), other)), "conflicting-duplicate");
      }
      case EXACT_COPY:
        return new Hostile(m, key, bytes, Outcome.DUPLICATE, null, null, -1);
      case TXN_ID_FROM_OTHER_SESSION: {
        TxnEvent b = copy(e);
        b.setSessionId("dup-" + e.getSessionId());
        return dead(m, e.getHistoryId() + "/" + b.getSessionId(), RecordCodec.encode(b), "txn-id-reused");
      }
      case COMMIT_OF_UNKNOWN_TXN: {
        int n = commits++;
        String history = COMMITS + n / limits.maxSessionsPerHistory();
        String txnId = "unknown-" + n;
        int endIndex = 2 + rnd.nextInt(50);
        TxnEvent c = new TxnEvent(history, "c" + n, txnId, 0L, endIndex, EventKind.COMMIT, null, null, e.getTime(), null);
        return new Hostile(m, history + "/c" + n, RecordCodec.encode(c), Outcome.INCOMPLETE, null, txnId, endIndex);
      }
      case THIN_AIR_READ: {
        int n = ghosts++;
        String txnId = "ghost-" + n;
        Transaction t = new Transaction(GHOST, "g", txnId, (long) n, TxnStatus.COMMITTED,
            List.of(new Operation(OpKind.READ, "ghost-key-" + n, 1L + n)), e.getTime(), e.getTime(), null);
        return new Hostile(m, GHOST + "/g", RecordCodec.encode(t), Outcome.ACCEPTED, null, txnId, -1);
      }
      case SESSION_FLOOD: {
        int n = sessions++;
        String txnId = "session-" + n;
        TxnEvent c = new TxnEvent(SESSIONS, "s" + n, txnId, 0L, 1, EventKind.COMMIT, null, null, e.getTime(), null);
        byte[] b = RecordCodec.encode(c);
        return n < limits.maxSessionsPerHistory() ? new Hostile(m, SESSIONS + "/s" + n, b, Outcome.ACCEPTED, null, txnId, -1)
            : dead(m, SESSIONS + "/s" + n, b, "too-many-sessions");
      }
      default: {
        int n = open++;
        String txnId = "open-" + n;
        TxnEvent begin = new TxnEvent(OPEN, "o", txnId, (long) n, 0, EventKind.BEGIN, null, null, e.getTime(), null);
        byte[] b = RecordCodec.encode(begin);
        return n < limits.maxOpenTransactionsPerSession() ? new Hostile(m, OPEN + "/o", b, Outcome.ACCEPTED, null, txnId, -1)
            : dead(m, OPEN + "/o", b, "too-many-open-transactions");
      }
    }
  }

  /**
   * Flips one random bit. A flip in the header must give {@code bad-marker} or {@code
   * unknown-fingerprint}; one in the body may still decode, to an event that differs from the
   * original in one field or, when a length is hit, in several. The assembler remembers the
   * original's transaction, so a copy that keeps its txnId, or its txnSeq (which its session has
   * passed), or no longer matches the record key, must be refused, for some reason; a copy that
   * changes both txnId and txnSeq is a new, well-formed transaction (the encoding has no checksum;
   * Kafka's record CRC guards the wire), so it is not sent, only counted.
   */
  private Hostile bitFlip(TxnEvent e, String key, byte[] bytes) {
    byte[] b = bytes.clone();
    int at = rnd.nextInt(b.length);
    b[at] ^= (byte) (1 << rnd.nextInt(8));
    if (at < 2) {
      return dead(Mutation.BIT_FLIP, key, b, "bad-marker");
    }
    if (at < RecordCodec.HEADER_BYTES) {
      return dead(Mutation.BIT_FLIP, key, b, "unknown-fingerprint");
    }
    RecordCodec.Decoded d = RecordCodec.decode(b);
    if (d.record() == null) {
      return dead(Mutation.BIT_FLIP, key, b, d.reasonClass());
    }
    TxnEvent f = (TxnEvent) d.record();
    boolean refused = f.getTxnId().equals(e.getTxnId()) || f.getTxnSeq() == e.getTxnSeq()
        || !key.equals(f.getHistoryId() + "/" + f.getSessionId());
    if (!refused) {
      skippedFlips++;
      return null;
    }
    return new Hostile(Mutation.BIT_FLIP, key, b, Outcome.DEAD_LETTER_ANY_REASON, null, null, -1);
  }

  private static Hostile dead(Mutation m, String key, byte[] value, String reasonClass) {
    return new Hostile(m, key, value, Outcome.DEAD_LETTER, reasonClass, null, -1);
  }

  private static TxnEvent copy(TxnEvent e) {
    return TxnEvent.newBuilder(e).build();
  }

  private static TxnEvent with(TxnEvent e, int opIndex, String key, Object value) {
    TxnEvent b = copy(e);
    b.setOpIndex(opIndex);
    b.setKey(key);
    b.setValue(value);
    return b;
  }

  private static TxnEvent kind(TxnEvent e, EventKind kind) {
    e.setKind(kind);
    return e;
  }

  private String text(int length) {
    char[] c = new char[length];
    for (int i = 0; i < length; i++) {
      c[i] = (char) ('a' + rnd.nextInt(26));
    }
    return new String(c);
  }

}
