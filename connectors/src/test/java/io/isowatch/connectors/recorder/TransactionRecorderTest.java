package io.isowatch.connectors.recorder;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.isowatch.connectors.privacy.KeyedHash;
import io.isowatch.connectors.privacy.Privacy;
import io.isowatch.schemas.OpKind;
import io.isowatch.schemas.Operation;
import io.isowatch.schemas.Transaction;
import io.isowatch.schemas.TxnStatus;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class TransactionRecorderTest {
  /** 2026-01-01T00:00:00Z in microseconds since the epoch. */
  private static final long T0 = 1_767_225_600_000_000L;

  @Test
  void recordsCommittedAndAbortedTransactionsWithSequenceNumbersAndMicroseconds() {
    CollectingSink sink = new CollectingSink();
    AtomicLong clock = new AtomicLong(T0);
    TransactionRecorder recorder = new TransactionRecorder("orders-db", sink, () -> clock.getAndAdd(250), Privacy.plaintext());

    SessionRecorder s = recorder.begin("conn-1");
    s.readInitial("x");
    s.write("x", 1);
    Transaction first = s.commit();
    recorder.begin("conn-1").read("x", 1);
    s.write("y", 7);
    Transaction second = s.abort();

    Transaction expectedFirst = new Transaction(
        "orders-db", "conn-1", "orders-db/conn-1/0", 0L, TxnStatus.COMMITTED,
        List.of(new Operation(OpKind.READ, "x", null), new Operation(OpKind.WRITE, "x", 1L)),
        Instant.parse("2026-01-01T00:00:00Z"), Instant.parse("2026-01-01T00:00:00.000250Z"), null);
    Transaction expectedSecond = new Transaction(
        "orders-db", "conn-1", "orders-db/conn-1/1", 1L, TxnStatus.ABORTED,
        List.of(new Operation(OpKind.READ, "x", 1L), new Operation(OpKind.WRITE, "y", 7L)),
        Instant.parse("2026-01-01T00:00:00.000500Z"), Instant.parse("2026-01-01T00:00:00.000750Z"), null);
    assertThat(sink.received()).containsExactly(expectedFirst, expectedSecond);
    assertThat(first).isEqualTo(expectedFirst);
    assertThat(second).isEqualTo(expectedSecond);
    assertThat(recorder.begin("conn-1")).isSameAs(s);
  }

  @Test
  void listAppendsAndListReadsAreRecordedAndHashedElementByElement() {
    CollectingSink sink = new CollectingSink();
    byte[] secret = "list-secret".getBytes(StandardCharsets.UTF_8);
    TransactionRecorder recorder = new TransactionRecorder("carts-db", sink, () -> T0, Privacy.hashed(secret));
    KeyedHash hash = KeyedHash.withSecret(secret);

    SessionRecorder s = recorder.begin("conn-1");
    s.readList("carts/42", List.of());
    s.append("carts/42", 3);
    s.commit();
    recorder.begin("conn-1").readList("carts/42", List.of(3L, 17L));
    s.commit();

    String key = hash.key("carts/42");
    assertThat(sink.received()).extracting(Transaction::getOps).containsExactly(
        List.of(new Operation(OpKind.READ, key, List.of()), new Operation(OpKind.APPEND, key, hash.value(3))),
        List.of(new Operation(OpKind.READ, key, List.of(hash.value(3), hash.value(17)))));
    assertThatThrownBy(() -> s.append("carts/42", 5)).isInstanceOf(IllegalStateException.class)
        .hasMessage("session conn-1 has no open transaction; call begin first");
    assertThatThrownBy(() -> s.readList("carts/42", List.of())).isInstanceOf(IllegalStateException.class)
        .hasMessage("session conn-1 has no open transaction; call begin first");
  }

  @Test
  void sessionsOnTwoThreadsAreNumberedIndependently() throws Exception {
    CollectingSink sink = new CollectingSink();
    TransactionRecorder recorder = new TransactionRecorder("db", sink, () -> T0, Privacy.plaintext());
    int perSession = 200;
    CyclicBarrier start = new CyclicBarrier(2);
    List<Throwable> failures = new ArrayList<>();
    List<Thread> threads = new ArrayList<>();
    for (String session : List.of("a", "b")) {
      Thread t = new Thread(() -> {
        try {
          start.await();
          for (int i = 0; i < perSession; i++) {
            SessionRecorder s = recorder.begin(session);
            s.read(session + "-key", i);
            s.write(session + "-key", i + 1);
            if (i % 3 == 2) {
              s.abort();
            } else {
              s.commit();
            }
          }
        } catch (Throwable e) {
          synchronized (failures) {
            failures.add(e);
          }
        }
      });
      threads.add(t);
      t.start();
    }
    for (Thread t : threads) {
      t.join();
    }

    assertThat(failures).isEmpty();
    for (String session : List.of("a", "b")) {
      List<Transaction> expected = new ArrayList<>();
      for (int i = 0; i < perSession; i++) {
        expected.add(new Transaction(
            "db", session, "db/" + session + "/" + i, (long) i,
            i % 3 == 2 ? TxnStatus.ABORTED : TxnStatus.COMMITTED,
            List.of(new Operation(OpKind.READ, session + "-key", (long) i),
                new Operation(OpKind.WRITE, session + "-key", i + 1L)),
            Instant.parse("2026-01-01T00:00:00Z"), Instant.parse("2026-01-01T00:00:00Z"), null));
      }
      List<Transaction> delivered = sink.received().stream()
          .filter(txn -> txn.getSessionId().equals(session)).toList();
      assertThat(delivered).as("session %s", session).isEqualTo(expected);
    }
    assertThat(sink.received()).hasSize(2 * perSession);
  }

  @Test
  void misuseIsRefusedWithTheSessionNamed() {
    TransactionRecorder recorder = new TransactionRecorder("db", new CollectingSink(), () -> T0, Privacy.plaintext());
    SessionRecorder s = recorder.begin("a");
    s.commit();

    assertThatThrownBy(() -> s.read("x", 1))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("session a has no open transaction; call begin first");
    assertThatThrownBy(s::commit)
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("session a has no open transaction; call begin first");
    recorder.begin("a");
    assertThatThrownBy(() -> recorder.begin("a"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("session a: transaction 1 has not ended; commit or abort it first");
  }

  @Test
  void aFailingSinkStillEndsTheTransaction() {
    AtomicLong calls = new AtomicLong();
    TransactionRecorder recorder = new TransactionRecorder("db", txn -> {
      calls.incrementAndGet();
      throw new IllegalStateException("broker unreachable");
    }, () -> T0, Privacy.plaintext());
    SessionRecorder s = recorder.begin("a");
    s.write("x", 1);

    assertThatThrownBy(s::commit).isInstanceOf(IllegalStateException.class).hasMessage("broker unreachable");
    assertThat(recorder.begin("a")).isSameAs(s);
    assertThatThrownBy(s::abort).isInstanceOf(IllegalStateException.class).hasMessage("broker unreachable");
    assertThat(calls.get()).isEqualTo(2);
  }

  @Test
  void aHashingRecorderRecordsOnlyKeyedHashes() {
    CollectingSink sink = new CollectingSink();
    TransactionRecorder recorder = new TransactionRecorder(
        "db", sink, () -> T0, Privacy.hashed("Jefe".getBytes(java.nio.charset.StandardCharsets.US_ASCII)));
    SessionRecorder s = recorder.begin("a");
    s.readInitial("accounts/42");
    s.write("accounts/42", 42);
    s.commit();

    // values from KeyedHashTest (OpenSSL): HMAC-SHA-256("Jefe", ...) truncated to 64 bits
    assertThat(sink.received().get(0).getOps()).containsExactly(
        new Operation(OpKind.READ, "0b1bd5a80f4851dc", null),
        new Operation(OpKind.WRITE, "0b1bd5a80f4851dc", 0x7f891fe7aa7140a6L));
  }

  @Test
  void anUnknownOutcomeIsRecordedAndAForgottenSessionStartsAfresh() {
    CollectingSink sink = new CollectingSink();
    TransactionRecorder recorder = new TransactionRecorder("db", sink, () -> T0, Privacy.plaintext());
    SessionRecorder s = recorder.begin("a");
    s.write("x", 1);
    assertThatThrownBy(() -> recorder.forget("a"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("session a has a transaction open; end it before forgetting the session");
    Transaction unknown = s.unknown();
    recorder.forget("a");
    recorder.forget("never-seen");

    assertThat(unknown).isEqualTo(new Transaction("db", "a", "db/a/0", 0L, TxnStatus.UNKNOWN,
        List.of(new Operation(OpKind.WRITE, "x", 1L)), Instant.parse("2026-01-01T00:00:00Z"),
        Instant.parse("2026-01-01T00:00:00Z"), null));
    assertThat(s.inTransaction()).isFalse();
    assertThat(recorder.begin("a")).isNotSameAs(s);
  }

  @Test
  void theSystemClockIsInMicroseconds() {
    Instant before = Instant.now();
    long micros = TransactionRecorder.systemMicros();
    Instant after = Instant.now();

    Instant asInstant = Instant.EPOCH.plusNanos(micros * 1_000L);
    assertThat(asInstant).isBetween(before.truncatedTo(java.time.temporal.ChronoUnit.MICROS), after);
  }
}
