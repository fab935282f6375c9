package io.isowatch.schemas;

import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.List;

/** One fully populated sample of each record, shared by the encoding and evolution tests. */
public final class Samples {
  /** 2026-01-01T00:00:00.000001Z: a timestamp with a non-zero microsecond part. */
  static final Instant T0 = Instant.ofEpochSecond(1_767_225_600L, 1_000L);

  private Samples() {}

  public static Source source() {
    return new Source("8841", 24_197_256L, null);
  }

  public static TxnEvent readListEvent() {
    return new TxnEvent(
        "orders-db", "s1", "orders-db/s1/3", 3L, 2, EventKind.READ, "x",
        List.of(4L, 7L, 9L), T0, source());
  }

  public static TxnEvent beginEvent() {
    return new TxnEvent("orders-db", "s1", "orders-db/s1/3", 3L, 0, EventKind.BEGIN, null, null, T0, null);
  }

  public static Transaction transaction() {
    return new Transaction(
        "orders-db", "s2", "orders-db/s2/0", 0L, TxnStatus.COMMITTED,
        List.of(
            new Operation(OpKind.READ, "x", null),
            new Operation(OpKind.WRITE, "x", 5L),
            new Operation(OpKind.APPEND, "l", 12L),
            new Operation(OpKind.READ, "l", List.of(11L, 12L))),
        T0, T0.plusNanos(250_000L), new Source(null, null, "0-1-42"));
  }

  public static Violation violation() {
    List<Operation> t1Ops = List.of(new Operation(OpKind.WRITE, "x", 1L), new Operation(OpKind.WRITE, "y", 1L));
    List<Operation> t2Ops = List.of(new Operation(OpKind.READ, "x", 1L), new Operation(OpKind.READ, "y", null));
    Witness witness = new Witness(
        List.of(
            new WitnessTransaction("db/s1/0", "s1", TxnStatus.COMMITTED, t1Ops),
            new WitnessTransaction("db/s2/0", "s2", TxnStatus.COMMITTED, t2Ops)),
        List.of(
            new WitnessEdge("db/s1/0", "db/s2/0", EdgeType.WR, "x", 1L, "T2 read x = 1 written by T1."),
            new WitnessEdge("db/s2/0", "db/s1/0", EdgeType.RW, "y", null,
                "T2 read the initial y, which T1 overwrites.")),
        List.of());
    return new Violation(
        "db", "9f2c4e1a77d0b3e5", T0.plusSeconds(2), Level.READ_ATOMIC, "non-repeatable-read",
        witness, new Window(T0, T0.plusSeconds(1), 2L),
        "T2 read x twice with different results: x = 1 from T1, then x = init from T_init");
  }

  public static DeadLetter deadLetter() {
    return new DeadLetter(
        ByteBuffer.wrap(new byte[] {(byte) 0xC3, 0x01, 0x7f}), "isowatch.events", 3, 1_024L,
        "truncated message: 3 bytes, a single-object header needs 10");
  }
}
