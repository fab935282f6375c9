package io.isowatch.enginesim.run;

import io.isowatch.checker.history.History;
import io.isowatch.enginesim.engine.IsolationEngine;

/**
 * The bank of the write-skew textbook case (Berenson et al., SIGMOD 1995, §4.2, history H5; Fekete
 * et al., TODS 2005, §1): two accounts {@code x} and {@code y} of one customer start at 100 each; the
 * bank's invariant is that the total balance {@code x + y} never goes below 0. Two sessions each run
 * one withdrawal of 150: read both balances, and if the total covers the amount, take it from one
 * account ({@code s0} from {@code x}, {@code s1} from {@code y}). Schedule: both read both balances,
 * then both write, then both commit. Serially the second withdrawal sees a total of 50 and does
 * nothing; under snapshot isolation both commit (they write different keys, so first-committer-wins
 * does not fire) and the total ends at -100: the G2-item cycle {@code T1 -rw-> T2 -rw-> T1}.
 *
 * <p>Register values must be unique per key for the checker, so a balance {@code b} is stored as
 * {@code (b + 1000) * 1000 + n}, where {@code n} counts the writes of that key ({@link #balance}
 * decodes it); the initial value {@link History#NIL} stands for {@link #OPENING}.
 */
public final class BankTransfer {
  /** Each account's opening balance. */
  public static final long OPENING = 100;
  /** The amount each withdrawal takes. */
  public static final long AMOUNT = 150;

  private BankTransfer() {}

  /**
   * What one run did.
   *
   * @param history the two withdrawals (sessions {@code s0}, {@code s1}) and the audit that read the
   *     final balances (session {@code audit}), in the order they ended
   * @param x account {@code x}'s final committed balance
   * @param y account {@code y}'s final committed balance
   */
  public record Outcome(History history, long x, long y) {
    /** @return whether the invariant {@code x + y >= 0} held at the end */
    public boolean invariantHolds() {
      return x + y >= 0;
    }
  }

  /**
   * Runs the two withdrawals on {@code engine} in the schedule described above, then reads the final
   * balances in a third transaction.
   *
   * @param engine a fresh engine that runs overlapping transactions (any MVCC level; not the serial
   *     engine)
   * @throws IllegalStateException if the engine makes a session wait
   */
  public static Outcome run(IsolationEngine engine) {
    History h = new History();
    Client a = new Client(engine, h, "s0");
    Client b = new Client(engine, h, "s1");
    if (!a.begin() || !b.begin()) {
      throw new IllegalStateException("the bank scenario needs an engine that runs both withdrawals at once");
    }
    long ax = balance(a.read("x"));
    long ay = balance(a.read("y"));
    long bx = balance(b.read("x"));
    long by = balance(b.read("y"));
    if (ax + ay >= AMOUNT) {
      a.write("x", encode(ax - AMOUNT));
    }
    if (bx + by >= AMOUNT) {
      b.write("y", encode(by - AMOUNT));
    }
    a.commit();
    b.commit();
    Client audit = new Client(engine, h, "audit");
    if (!audit.begin()) {
      throw new IllegalStateException("the engine made the audit wait");
    }
    long x = balance(audit.read("x"));
    long y = balance(audit.read("y"));
    audit.commit();
    return new Outcome(h, x, y);
  }

  /**
   * @param value a register value of an account, {@link History#NIL} for the opening balance
   * @return the balance it stores
   */
  public static long balance(long value) {
    return value == History.NIL ? OPENING : value / 1000 - 1000;
  }

  /** Each account is written at most once per run, so write number 1 keeps values unique. */
  private static long encode(long balance) {
    return (balance + 1000) * 1000 + 1;
  }
}
