package io.isowatch.bench.window;

import io.isowatch.checker.history.TxnStatus;
import io.isowatch.checker.window.CheckFamily;
import io.isowatch.checker.window.WindowChecker;
import io.isowatch.checker.window.WindowConfig;
import io.isowatch.checker.window.WindowTxn;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The window checker's cost per transaction when violations accumulate (issue 18): a list-append
 * history shaped like the probe's {@code --scenario write-skew} run at snapshot isolation, offered
 * one transaction at a time to a {@link WindowChecker} of window W running only the family of the
 * incremental Adya check at serializable ({@link CheckFamily#ADYA_POLYGRAPH}, whose polygraph checks
 * run only on register-only histories, so never here; no time bound, no read grace).
 *
 * <p>The history ({@link #history}): {@code --keys} key slots taken in pairs, as the probe's
 * {@code Scenario.WRITE_SKEW} takes them; each slot's key is retired after 32 appends and the slot
 * moves to a fresh key (the probe's {@code --max-appends-per-key} default). Every round is two
 * transactions of two sessions on one pair that read both keys from the same snapshot and append one
 * each, so every round is a G2-item cycle of two {@code rw} edges, one of which the topological order
 * rejects (a pending edge of the incremental check). Four sessions run two rounds at a time on
 * different pairs, staggered: commit order {@code r.1, (r-1).2, (r+1).1, r.2, ...}, so consecutive
 * rounds' cycles overlap in the order, as concurrent sessions make them.
 *
 * <p>Measures the current thread's CPU time ({@code ThreadMXBean}) per block of {@code --block}
 * transactions and prints, at each checkpoint, µs of thread CPU per transaction over the block that
 * ends there, with the violations reported so far. A run stops early, saying so, once it used
 * {@code --max-seconds} of CPU.
 */
@Command(name = "isowatch-write-skew-bench", mixinStandardHelpOptions = true,
    description = "Times the window checker on a write-skew-heavy list-append history (a G2-item per round).")
public final class WriteSkewBenchmark implements Callable<Integer> {
  /** Appends a key takes before its slot moves to a fresh key: the probe's default. */
  static final int MAX_APPENDS_PER_KEY = 32;

  @Option(names = "--checkpoints", split = ",",
      description = "Transactions fed at which to print (default: 10000,100000,300000).")
  int[] checkpoints = {10_000, 100_000, 300_000};

  @Option(names = "--window", description = "Window W, in transactions (default: ${DEFAULT-VALUE}).")
  int window = 1_000_000;

  @Option(names = "--keys", description = "Key slots, even, 4 to 8 in the probe (default: ${DEFAULT-VALUE}).")
  int keys = 8;

  @Option(names = "--block", description = "Transactions per timed block (default: ${DEFAULT-VALUE}).")
  int block = 10_000;

  @Option(names = "--max-seconds", description = "Stop after this much thread CPU (default: ${DEFAULT-VALUE}).")
  double maxSeconds = 1200;

  @Option(names = "--seed", description = "Seed of the pairs' choice (default: ${DEFAULT-VALUE}).")
  long seed = 1;

  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  /**
   * Runs the benchmark; exit code 0, 2 on bad options.
   *
   * @param args see {@code --help}
   */
  public static void main(String[] args) {
    System.exit(new CommandLine(new WriteSkewBenchmark()).execute(args));
  }

  @Override
  public Integer call() {
    int[] marks = checkpoints.clone();
    Arrays.sort(marks);
    if (keys < 4 || keys % 2 != 0 || window < 2 || block < 1 || marks[0] < block) {
      throw new CommandLine.ParameterException(new CommandLine(this),
          "--keys must be even and at least 4, --window at least 2, every checkpoint at least --block");
    }
    int n = marks[marks.length - 1];
    System.out.printf(Locale.ROOT, "# isowatch write-skew window benchmark: %,d transactions, %d key slots, window %,d,"
        + " blocks of %,d, max heap %,d MiB, started %s%n", n, keys, window, block,
        Runtime.getRuntime().maxMemory() >> 20, Instant.now());
    List<WindowTxn> txns = history(n, keys, seed);
    WindowConfig config = WindowConfig.of(window, 0, 0).withFamilies(EnumSet.of(CheckFamily.ADYA_POLYGRAPH));
    WindowChecker checker = new WindowChecker(config, new WindowChecker.Journal() {});
    System.out.println("| transactions fed | thread CPU per txn over the last block (µs) | violations reported |");
    System.out.println("|---:|---:|---:|");
    long violations = 0;
    long total = 0;
    int next = 0;
    for (int start = 0; start < n; start += block) {
      int end = Math.min(n, start + block);
      long t0 = THREADS.getCurrentThreadCpuTime();
      for (int i = start; i < end; i++) {
        violations += checker.offer(txns.get(i)).violations().size();
        txns.set(i, null);
      }
      long cpu = THREADS.getCurrentThreadCpuTime() - t0;
      total += cpu;
      while (next < marks.length && marks[next] <= end) {
        if (marks[next] == end) {
          System.out.printf(Locale.ROOT, "| %,d | %.1f | %,d |%n", end, cpu / 1e3 / (end - start), violations);
        }
        next++;
      }
      if (total / 1e9 > maxSeconds && end < n) {
        System.out.printf(Locale.ROOT, "stopped after %,d transactions: %.0f s of thread CPU (--max-seconds)%n",
            end, total / 1e9);
        return 0;
      }
    }
    System.out.printf(Locale.ROOT, "total: %.1f s of thread CPU%n", total / 1e9);
    return 0;
  }

  /**
   * The class comment's history: {@code n} transactions (a round is two), ids {@code t<n>}, sessions
   * {@code s0..s3}, keys {@code k<slot>.<generation>}, every transaction committed.
   *
   * @param n transactions, rounded down to a whole number of rounds
   * @param keys key slots, even, at least 4
   * @param seed seed of the pairs' choice
   * @return the transactions in commit order
   */
  static List<WindowTxn> history(int n, int keys, long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    int rounds = n / 2;
    int[] generation = new int[keys];
    int[] appended = new int[keys];
    List<List<Long>> lists = new ArrayList<>();
    for (int k = 0; k < keys; k++) {
      lists.add(new ArrayList<>());
    }
    long[] next = {1};
    List<WindowTxn> out = new ArrayList<>(2 * rounds);
    Round previous = null;
    int lastPair = -1;
    for (int r = 0; r < rounds; r++) {
      int pair = rnd.nextInt(keys / 2 - 1);
      pair = pair >= lastPair && lastPair >= 0 ? pair + 1 : pair; // another pair than the round in flight
      lastPair = pair;
      Round round = new Round(r, 2 * pair, 2 * pair + 1, 2 * (r % 2));
      round.snapshot(lists, generation);
      out.add(round.commit(0, lists, generation, appended, next));
      if (previous != null) {
        out.add(previous.commit(1, lists, generation, appended, next));
      }
      previous = round;
    }
    if (previous != null) {
      out.add(previous.commit(1, lists, generation, appended, next));
    }
    return out;
  }

  /** One round: two transactions on slots {@code x} and {@code y} that read one snapshot, the first appending to x, the second to y. */
  private static final class Round {
    private final int number;
    private final int[] slot;
    private final int session;
    private final String[] key = new String[2];
    private final long[][] seen = new long[2][];

    Round(int number, int x, int y, int session) {
      this.number = number;
      this.slot = new int[] {x, y};
      this.session = session;
    }

    /** Reads both slots' current keys and lists: the round's snapshot. */
    void snapshot(List<List<Long>> lists, int[] generation) {
      for (int i = 0; i < 2; i++) {
        key[i] = "k" + slot[i] + "." + generation[slot[i]];
        seen[i] = lists.get(slot[i]).stream().mapToLong(Long::longValue).toArray();
      }
    }

    /** @return transaction {@code i} of the round, committed now: appends to its slot, rotating it after 32 appends */
    WindowTxn commit(int i, List<List<Long>> lists, int[] generation, int[] appended, long[] next) {
      long value = next[0]++;
      WindowTxn.Builder b = WindowTxn.builder("t" + (2L * number + i), "s" + (session + i), value, TxnStatus.COMMITTED);
      b.readList(key[0], seen[0]);
      b.readList(key[1], seen[1]);
      b.append(key[i], value);
      int s = slot[i];
      if (key[i].equals("k" + s + "." + generation[s])) {
        lists.get(s).add(value);
        if (++appended[s] == MAX_APPENDS_PER_KEY) {
          generation[s]++;
          appended[s] = 0;
          lists.get(s).clear();
        }
      }
      return b.build();
    }
  }
}
