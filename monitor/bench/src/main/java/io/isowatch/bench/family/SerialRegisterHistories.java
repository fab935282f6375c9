package io.isowatch.bench.family;

import io.isowatch.checker.history.History;
import io.isowatch.checker.history.TxnStatus;
import java.util.SplittableRandom;

/**
 * Large consistent register histories written straight into a {@link History} (no per-operation
 * objects): the workload of the benchmark, {@code N} committed transactions of {@value
 * #OPS_PER_TXN} operations each over {@value #SESSIONS} sessions.
 *
 * <p>The histories come from a sequential "database": transactions run one after the other, each
 * on a session drawn uniformly at random; a read returns the transaction's own last write of the
 * key if it wrote it, else the latest write committed so far ({@link History#NIL} before the first).
 * Such a history is serializable, hence consistent at read committed, read atomic and causal
 * consistency, so a checker finds no violation and has to do all of its work. Values are unique per
 * key (the {@code i}-th write of a key writes {@code i}, counting from 1).
 *
 * <p>Keys are named {@code k0 .. k<keys-1>} and interned in that order (key id = index); key
 * popularity follows {@code P(key < k) = (k / keys)^(1 / skew)}: {@code skew = 1} is uniform,
 * {@code skew > 1} makes low-numbered keys hotter. Generation is deterministic in the seed and takes
 * O(N) time (plus the interning of the key names).
 */
public final class SerialRegisterHistories {
  /** Sessions of every generated history (all interned, even if some received no transaction). */
  public static final int SESSIONS = 50;

  /** Operations per transaction. */
  public static final int OPS_PER_TXN = 8;

  private SerialRegisterHistories() {}

  /**
   * Shape of a generated history.
   *
   * @param transactions number of transactions, at least 1
   * @param keys size of the key space, at least 1
   * @param readFraction probability that an operation is a read, in [0, 1]
   * @param skew key skew exponent, at least 1 (1 = uniform)
   */
  public record Shape(int transactions, int keys, double readFraction, double skew) {
    /**
     * @throws IllegalArgumentException if a field is out of its range
     */
    public Shape {
      if (transactions < 1 || keys < 1 || !(readFraction >= 0 && readFraction <= 1) || !(skew >= 1)) {
        throw new IllegalArgumentException("bad shape: " + transactions + " transactions, " + keys
            + " keys, read fraction " + readFraction + ", skew " + skew);
      }
    }

    /**
     * The benchmark's default shape: {@code transactions / 10} keys clamped to [10^4, 10^5], half of
     * the operations reads, mild skew 1.5.
     *
     * @param transactions number of transactions, at least 1
     * @return the shape
     */
    public static Shape standard(int transactions) {
      int keys = Math.max(10_000, Math.min(100_000, transactions / 10));
      return new Shape(transactions, keys, 0.5, 1.5);
    }
  }

  /**
   * @param keys number of keys, named {@code k0 .. k<keys-1>}
   * @param sessions number of sessions, named {@code s0 .. s<sessions-1>}
   * @return an empty history with those keys and sessions interned in order (ids = indexes)
   */
  static History interned(int keys, int sessions) {
    History h = new History();
    for (int k = 0; k < keys; k++) {
      h.key("k" + k);
    }
    for (int s = 0; s < sessions; s++) {
      h.session("s" + s);
    }
    return h;
  }

  /**
   * Receives generated transactions one at a time, each as {@code begin}, its {@value #OPS_PER_TXN}
   * operations in program order, then {@code commit}.
   */
  public interface Sink {
    /**
     * @param session the session, in {@code [0, SESSIONS)}
     * @param label the transaction's number, 0 for the first
     */
    void begin(int session, long label);

    /**
     * @param key the key, in {@code [0, keys)}
     * @param value the value read: a value some transaction wrote to {@code key}, or {@link
     *     History#NIL} for the initial value
     */
    void read(int key, long value);

    /**
     * @param key the key, in {@code [0, keys)}
     * @param value the value written, unique per key
     */
    void write(int key, long value);

    /** Ends the transaction, committed. */
    void commit();
  }

  /**
   * Generates a history.
   *
   * @param shape its shape
   * @param seed the random seed; the same seed and shape give the same history, operation for
   *     operation
   * @return a history of {@code shape.transactions()} committed transactions, {@code 8 *
   *     shape.transactions()} operations, {@value #SESSIONS} sessions and {@code shape.keys()} keys
   */
  public static History generate(Shape shape, long seed) {
    History h = interned(shape.keys(), SESSIONS);
    generate(shape, seed, new Sink() {
      @Override
      public void begin(int session, long label) {
        h.beginTxn(session, label);
      }

      @Override
      public void read(int key, long value) {
        h.read(key, value);
      }

      @Override
      public void write(int key, long value) {
        h.write(key, value);
      }

      @Override
      public void commit() {
        h.end(TxnStatus.COMMITTED);
      }
    });
    return h;
  }

  /**
   * Generates the same transactions as {@link #generate(Shape, long)} into a sink, holding only
   * O(keys) memory: for histories too large to keep, such as the soak benchmark's 10^7 transactions.
   *
   * @param shape its shape
   * @param seed the random seed
   * @param sink receives the transactions in order
   */
  public static void generate(Shape shape, long seed, Sink sink) {
    SplittableRandom rnd = new SplittableRandom(seed);
    int keys = shape.keys();
    long[] committed = new long[keys];
    java.util.Arrays.fill(committed, History.NIL);
    long[] writeCount = new long[keys];
    int[] ownKey = new int[OPS_PER_TXN];
    long[] ownValue = new long[OPS_PER_TXN];
    double exponent = shape.skew();
    for (int t = 0; t < shape.transactions(); t++) {
      sink.begin(rnd.nextInt(SESSIONS), t);
      int owned = 0;
      for (int i = 0; i < OPS_PER_TXN; i++) {
        int key = pickKey(rnd, keys, exponent);
        int own = indexOf(ownKey, owned, key);
        if (rnd.nextDouble() < shape.readFraction()) {
          sink.read(key, own >= 0 ? ownValue[own] : committed[key]);
        } else {
          long value = ++writeCount[key];
          sink.write(key, value);
          if (own < 0) {
            own = owned++;
            ownKey[own] = key;
          }
          ownValue[own] = value;
        }
      }
      sink.commit();
      for (int i = 0; i < owned; i++) {
        committed[ownKey[i]] = ownValue[i];
      }
    }
  }

  private static int pickKey(SplittableRandom rnd, int keys, double exponent) {
    double u = rnd.nextDouble();
    int k = (int) (keys * (exponent == 1.0 ? u : Math.pow(u, exponent)));
    return Math.min(k, keys - 1);
  }

  private static int indexOf(int[] a, int n, int x) {
    for (int i = 0; i < n; i++) {
      if (a[i] == x) {
        return i;
      }
    }
    return -1;
  }
}
