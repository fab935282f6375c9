package io.isowatch.stream.assembly;

import static io.isowatch.stream.assembly.AssemblerDriver.commit;
import static io.isowatch.stream.assembly.AssemblerDriver.dead;
import static io.isowatch.stream.assembly.AssemblerDriver.emitted;
import static io.isowatch.stream.assembly.AssemblerDriver.txn;
import static io.isowatch.stream.assembly.AssemblerDriver.w;
import static io.isowatch.stream.assembly.AssemblerDriver.write;
import static org.assertj.core.api.Assertions.assertThat;

import io.isowatch.schemas.Operation;
import io.isowatch.schemas.OpKind;
import io.isowatch.schemas.Transaction;
import io.isowatch.schemas.TxnEvent;
import io.isowatch.schemas.TxnStatus;
import io.isowatch.schemas.serde.RecordCodec;
import io.isowatch.stream.config.MonitorConfig;
import io.isowatch.stream.config.MonitorConfig.Limits;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The limits added for hostile input (issue 8): sessions per history, record size, and a
 * transaction of 10^6 operations, each refused with an exact dead letter instead of state.
 */
class AssemblerLimitsTest {
  private static final MonitorConfig CONFIG = MonitorConfig.defaults()
      .withTimeouts(Duration.ofSeconds(30), Duration.ofSeconds(30), Duration.ofSeconds(60));

  @TempDir
  Path stateDir;

  @Test
  void aNewSessionPastTheLimitOfItsHistoryIsRefusedWhileKnownSessionsAndOtherHistoriesGoOn() {
    try (AssemblerDriver d = new AssemblerDriver(CONFIG.withLimits(Limits.defaults().with("max-sessions-per-history", 2)),
        stateDir)) {
      d.send(commit("s1", "T1", 0, 1, 0));
      d.send(commit("s2", "T2", 0, 1, 0));
      TxnEvent third = commit("s3", "T3", 0, 1, 0);
      d.send(third);
      d.send(commit("s1", "T4", 1, 1, 0));
      TxnEvent otherHistory = new TxnEvent("other", "s3", "T5", 0L, 1, io.isowatch.schemas.EventKind.COMMIT, null,
          null, Instant.EPOCH, null);
      d.send(otherHistory);
      Transaction wholeThird = txn("s4", "T6", 0, TxnStatus.COMMITTED, 0, 0, w("x", 1));
      d.send(wholeThird, 0);

      assertThat(d.out()).containsExactly(
          emitted(txn("s1", "T1", 0, TxnStatus.COMMITTED, 0, 0)),
          emitted(txn("s2", "T2", 0, TxnStatus.COMMITTED, 0, 0)),
          dead("db/s3", RecordCodec.encode(third), 2,
              "too-many-sessions: history db has 2 sessions in this task, the limit; session db/s3 of transaction T3 refused"),
          emitted(txn("s1", "T4", 1, TxnStatus.COMMITTED, 0, 0)),
          emitted(new Transaction("other", "s3", "T5", 0L, TxnStatus.COMMITTED, List.of(), Instant.EPOCH,
              Instant.EPOCH, null)),
          dead("db/s4", RecordCodec.encode(wholeThird), 5,
              "too-many-sessions: history db has 2 sessions in this task, the limit; session db/s4 of transaction T6 refused"));
      assertThat(d.deadLetters("too-many-sessions")).isEqualTo(2.0);
    }
  }

  @Test
  void aRecordLongerThanTheLimitIsRefusedBeforeItIsDecoded() {
    TxnEvent small = write("s1", "T1", 0, 1, "x", 1, 0);
    byte[] bytes = RecordCodec.encode(small);
    try (AssemblerDriver d = new AssemblerDriver(
        CONFIG.withLimits(Limits.defaults().with("max-record-bytes", bytes.length - 1)), stateDir)) {
      byte[] garbage = new byte[bytes.length];
      d.send("db/s1", bytes, 0);
      d.send("db/s1", garbage, 0);

      assertThat(d.out()).containsExactly(
          dead("db/s1", bytes, 0, "oversized-record: the record is " + bytes.length + " bytes, the limit is "
              + (bytes.length - 1) + "; not decoded"),
          dead("db/s1", garbage, 1, "oversized-record: the record is " + garbage.length + " bytes, the limit is "
              + (bytes.length - 1) + "; not decoded"));
    }
  }

  /**
   * A transaction of 10^6 operations, as one whole record and as 10^6 + 1 events, under the default
   * limits: the record is refused whole; of the events, those past the limit and the COMMIT are
   * refused one by one, and the transaction held so far is given up at the open timeout.
   */
  @Test
  void aTransactionOfAMillionOperationsIsRefusedByTheDefaultLimits() {
    int n = 1_000_000;
    int limit = Limits.defaults().maxOpsPerTransaction();
    List<Operation> ops = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      ops.add(new Operation(OpKind.WRITE, "k", (long) i));
    }
    Transaction huge = new Transaction(AssemblerDriver.H, "s1", "T1", 0L, TxnStatus.COMMITTED, ops, Instant.EPOCH,
        Instant.EPOCH, null);
    byte[] hugeBytes = RecordCodec.encode(huge);
    try (AssemblerDriver d = new AssemblerDriver(CONFIG, stateDir)) {
      d.send("db/s1", hugeBytes, 0);

      assertThat(d.out()).containsExactly(dead("db/s1", hugeBytes, 0,
          "too-many-operations: transaction T1 has 1000000 operations, the limit is 100000"));
    }
  }

  /**
   * A transaction of {@code -Disowatch.fuzz.bigTxnOps} operations (default 5,000; 1,000,000 in the
   * documented long run) sent as events under a limit of 1,000 operations: the operations past the
   * limit and the COMMIT are refused one by one, each with its exact dead letter, the state holds
   * the first 1,000, and at the open timeout the transaction is emitted with status UNKNOWN and
   * those 1,000 operations.
   */
  @Test
  void aTransactionOfAMillionOperationEventsIsRefusedPastTheLimitOneEventAtATime() {
    int n = Integer.getInteger("isowatch.fuzz.bigTxnOps", 5_000);
    int limit = 1_000;
    List<Operation> kept = new ArrayList<>();
    try (AssemblerDriver d = new AssemblerDriver(CONFIG.withLimits(Limits.defaults().with("max-ops-per-transaction", limit)),
        stateDir)) {
      for (int i = 1; i <= n + 1; i++) {
        TxnEvent e = i <= n ? write("s1", "T1", 0, i, "k", i, 0) : commit("s1", "T1", 0, i, 0);
        d.send(e);
        if (i <= limit) {
          kept.add(new Operation(OpKind.WRITE, "k", (long) i));
          assertThat(d.out()).isEmpty();
        } else {
          assertThat(d.out()).containsExactly(dead("db/s1", RecordCodec.encode(e), i - 1, i <= n
              ? "too-many-operations: WRITE of T1 at opIndex " + i + " is past the limit of 1000 operations per transaction"
              : "too-many-operations: COMMIT of T1 at opIndex " + i + " ends a transaction of " + n
                  + " operations, the limit is 1000"));
        }
      }
      d.send(commit("s2", "U1", 0, 1, 60_000));

      assertThat(d.out()).containsExactly(
          emitted(txn("s2", "U1", 0, TxnStatus.COMMITTED, 60_000, 60_000)),
          emitted(new Transaction(AssemblerDriver.H, "s1", "T1", 0L, TxnStatus.UNKNOWN, kept, Instant.EPOCH,
              Instant.ofEpochMilli(60_000), null)));
      assertThat(d.deadLetters("too-many-operations")).isEqualTo(n + 1 - limit);
    }
  }
}
