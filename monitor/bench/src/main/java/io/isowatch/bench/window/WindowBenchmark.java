package io.isowatch.bench.window;

import io.isowatch.bench.CheckerBenchmark;
import io.isowatch.bench.family.SerialListAppendHistories;
import io.isowatch.bench.family.SerialRegisterHistories;
import io.isowatch.checker.awdit.IncrementalChecker;
import io.isowatch.checker.history.History;
import io.isowatch.checker.history.OpKind;
import io.isowatch.checker.history.TxnStatus;
import io.isowatch.checker.level.Level;
import io.isowatch.checker.window.WindowChecker;
import io.isowatch.checker.window.WindowConfig;
import io.isowatch.checker.window.WindowTxn;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The window checker's cost per transaction outside Kafka: by default the register family of the streaming
 * benchmark ({@link SerialRegisterHistories}, 8 operations per transaction, 50 sessions, half reads,
 * a serial "database", so no violation) offered as {@link WindowTxn}s, one at a time, to a {@link
 * WindowChecker} with window W, the way the monitor's checker task offers them (read committed,
 * read atomic and causal consistency checked, and the polygraph's snapshot isolation and
 * serializable up to {@code --level}, by default neither; no time bound, no read grace).
 *
 * <p>Each repetition builds the transactions afresh (new key strings, as the stream decodes them,
 * so no cached {@code String} hash is reused), offers them to a new checker and measures the
 * current thread's CPU time ({@code ThreadMXBean}) over the offers only: µs of thread CPU per
 * transaction. A warm-up run of the same kind precedes the timed ones. Heap: in use after a full GC
 * with the last checker still reachable, minus the same before it was created, over the window's
 * transactions (it includes the offered transactions the window keeps).
 *
 * <p>With {@code --family list-append}, the list-append family instead ({@link
 * SerialListAppendHistories}: Elle's shape, 8 operations, half appends, 50 sessions, {@code N / 4}
 * uniform keys, so each key's list stays short, about 16 elements at the end), which the window also
 * checks with the incremental Adya check at serializable. With {@code --windows}, one run per
 * window size, the sizes alternating within each repetition, and one table with a row per size.
 * The list-append family's evicted-write memory holds every append of the run ({@link #listConfig}).
 *
 * <p>For the split by level, the same transactions also go (without a window, into one {@link
 * History}) to one {@link IncrementalChecker} per level, timed alone: what each level costs in one
 * generation, not in the window.
 */
@Command(name = "isowatch-window-bench", mixinStandardHelpOptions = true,
    description = "Times the streaming monitor's window checker on the register or list-append family, in one thread.")
public final class WindowBenchmark implements Callable<Integer> {
  @Option(names = "--transactions", description = "Transactions offered per timed run (default: ${DEFAULT-VALUE}).")
  int transactions = 200_000;

  @Option(names = "--window", description = "Window W of the checker, in transactions (default: ${DEFAULT-VALUE}).")
  int window = 20_000;

  @Option(names = "--windows", split = ",",
      description = "Several window sizes, measured in one run, one table (overrides --window).")
  int[] windows;

  @Option(names = "--family", description = "register (default) or list-append.")
  String family = "register";

  @Option(names = "--warmup", description = "Transactions of the untimed warm-up run (default: ${DEFAULT-VALUE}).")
  int warmup = 100_000;

  @Option(names = "--repetitions", description = "Timed runs; the median and the minimum are reported (default: ${DEFAULT-VALUE}).")
  int repetitions = 3;

  @Option(names = "--levels", negatable = true, defaultValue = "true", fallbackValue = "true",
      description = "Also time RC, RA and CC alone, without a window (default: on; --no-levels to skip).")
  boolean levels = true;

  @Option(names = "--seed", description = "Generation seed (default: ${DEFAULT-VALUE}).")
  long seed = 1;

  @Option(names = "--level", description = "The register family's expected level: the window's polygraph checks run"
      + " up to it, none below snapshot-isolation (default: ${DEFAULT-VALUE}).", converter = CheckerBenchmark.LevelConverter.class)
  Level level = Level.CAUSAL;

  @Option(names = "--max-appends-per-key",
      description = "List-append family only: 1,000 key slots whose lists are retired at this many elements"
          + " (Elle's and the probe's bounded lists; SerialListAppendHistories.Shape.rotating) instead of N/4 keys"
          + " that live as long as the run; 0 (default) for the latter.")
  int maxAppendsPerKey;

  @Option(names = "--session-per-transaction",
      description = "List-append family only: every transaction in a session of its own, the shape of CDC histories"
          + " (capture --cdc, monitor --input debezium-cdc), instead of 50 sessions.")
  boolean sessionPerTransaction;

  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
  private static final com.sun.management.ThreadMXBean ALLOCATION =
      (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

  /**
   * Runs the benchmark; exit code 0, 1 if the checker reported a violation (the family has none),
   * 2 on bad options.
   *
   * @param args see {@code --help}
   */
  public static void main(String[] args) {
    System.exit(new CommandLine(new WindowBenchmark()).execute(args));
  }

  @Override
  public Integer call() {
    boolean lists = "list-append".equals(family);
    int[] sizes = windows != null ? windows : new int[] {window};
    if (transactions < 2 || Arrays.stream(sizes).anyMatch(w -> w < 2) || warmup < 0 || repetitions < 1
        || !(lists || "register".equals(family)) || ((sessionPerTransaction || maxAppendsPerKey != 0) && !lists) || maxAppendsPerKey < 0) {
      throw new CommandLine.ParameterException(new CommandLine(this),
          "--transactions and every window must be at least 2, --warmup at least 0, --repetitions at least 1,"
          + " --family register or list-append, --session-per-transaction and --max-appends-per-key (at least 0)"
          + " with list-append only");
    }
    SerialRegisterHistories.Shape shape = SerialRegisterHistories.Shape.standard(transactions);
    System.out.printf(Locale.ROOT, "# isowatch window benchmark: %s family, %,d transactions x 8 ops, %s,"
        + " %,d keys%s, windows %s, %s, warm-up %,d, max heap %,d MiB, started %s%n", family, transactions,
        sessionPerTransaction ? "a session per transaction" : "50 sessions",
        lists ? listShape(transactions).keys() : shape.keys(),
        maxAppendsPerKey > 0 ? " (slots; lists retired at " + maxAppendsPerKey + " elements)" : "", Arrays.toString(sizes),
        lists ? "RC+RA+CC and Adya (serializable)" : "RC+RA+CC, polygraph up to " + level.cliName(), warmup, Runtime.getRuntime().maxMemory() >> 20,
        Instant.now());
    if (warmup > 0) {
      Run w = lists ? timeWindow(buildLists(listShape(Math.max(warmup, 2)), seed + 1, sessionPerTransaction), listConfig(sizes[0], warmup))
          : timeWindow(SerialRegisterHistories.Shape.standard(Math.max(warmup, 2)), seed + 1, sizes[0], level);
      System.out.printf(Locale.ROOT, "warm-up: %.1f µs per transaction%n", w.micros);
    }
    double[][] micros = new double[sizes.length][repetitions];
    long[] heap = new long[sizes.length];
    double[] allocated = new double[sizes.length];
    for (int r = 0; r < repetitions; r++) {
      for (int i = 0; i < sizes.length; i++) {
        Run run = lists ? timeWindow(buildLists(listShape(transactions), seed, sessionPerTransaction), listConfig(sizes[i], transactions))
            : timeWindow(shape, seed, sizes[i], level);
        if (run.violations > 0) {
          System.err.println("the checker reported " + run.violations + " violations on a serial history");
          return 1;
        }
        micros[i][r] = run.micros;
        heap[i] = run.heapBytes;
        allocated[i] = run.allocated;
        System.out.printf(Locale.ROOT, "run %d, window %,d: %.2f µs per transaction, %,.0f bytes allocated per"
            + " transaction, heap %,d bytes per window transaction%n", r + 1, sizes[i], run.micros, run.allocated,
            run.heapBytes / Math.min(sizes[i], transactions));
      }
    }
    System.out.println();
    System.out.println("| family | transactions | window | thread CPU per txn (µs, median) | min (µs) | runs (µs) | ratio to the first window (medians) | txn/s of one core at the median | allocated per txn (bytes) | heap per window txn (bytes) |");
    System.out.println("|---|---:|---:|---:|---:|---|---:|---:|---:|---:|");
    double base = median(micros[0]);
    for (int i = 0; i < sizes.length; i++) {
      double median = median(micros[i]);
      StringBuilder runs = new StringBuilder();
      for (double m : micros[i]) {
        runs.append(runs.length() == 0 ? "" : ", ").append(String.format(Locale.ROOT, "%.2f", m));
      }
      System.out.printf(Locale.ROOT, "| %s | %,d | %,d | %.2f | %.2f | %s | %.2f | %,.0f | %,.0f | %,d |%n", family,
          transactions, sizes[i], median, Arrays.stream(micros[i]).min().orElseThrow(), runs, median / base,
          1e6 / median, allocated[i], heap[i] / Math.min(sizes[i], transactions));
    }
    if (levels && !lists) {
      System.out.println();
      System.out.println("| level alone (one history, no window) | thread CPU per txn (µs, median) |");
      System.out.println("|---|---:|");
      for (Level level : List.of(Level.READ_COMMITTED, Level.READ_ATOMIC, Level.CAUSAL)) {
        double[] lm = new double[repetitions];
        for (int r = 0; r < repetitions; r++) {
          lm[r] = timeLevel(build(shape, seed), level);
        }
        System.out.printf(Locale.ROOT, "| %s | %.2f |%n", level.cliName(), median(lm));
      }
    }
    return 0;
  }

  /**
   * What one timed window run measured.
   *
   * @param micros thread CPU per transaction, µs
   * @param allocated bytes the thread allocated per transaction (deterministic for a given code,
   *     unlike the CPU time on a shared machine)
   * @param heapBytes heap kept by the checker after a full GC
   * @param violations violations reported (0 expected)
   */
  public record Run(double micros, double allocated, long heapBytes, int violations) {}

  /**
   * Offers the family's transactions ({@code shape}, {@code seed}), built afresh, one at a time to a
   * new {@link WindowChecker} of window {@code window} (no time bound, no read grace) in the calling
   * thread, and measures that thread over the offers.
   *
   * @param window the checker's window W, in transactions (at least 2)
   * @param level the history's expected level: the window's polygraph checks run up to it ({@link
   *     WindowConfig#polygraphUpTo()}; none below snapshot isolation)
   * @return what the run measured
   * @throws IllegalArgumentException if {@code window} is below 2
   */
  public static Run timeWindow(SerialRegisterHistories.Shape shape, long seed, int window, Level level) {
    return timeWindow(build(shape, seed), WindowConfig.of(window, 0, 0).withPolygraphUpTo(level));
  }

  /**
   * The list-append family's window run: {@code transactions} of {@link SerialListAppendHistories}'s
   * standard shape ({@code seed}), offered one at a time to a new {@link WindowChecker} of window
   * {@code window} with an evicted-write memory that holds every append of the run (see {@link
   * #listConfig}), in the calling thread.
   *
   * @param window the checker's window W, in transactions (at least 2)
   * @return what the run measured
   */
  public static Run timeListWindow(int transactions, long seed, int window) {
    return timeWindow(buildLists(SerialListAppendHistories.Shape.standard(transactions), seed, false),
        listConfig(window, transactions));
  }

  /**
   * Offers {@code txns}, built afresh by the caller, one at a time to a new {@link WindowChecker}
   * configured by {@code config} in the calling thread, and measures that thread over the offers;
   * {@code txns} is emptied before the heap is measured.
   *
   * @return what the run measured
   */
  public static Run timeWindow(List<WindowTxn> txns, WindowConfig config) {
    long before = usedAfterGc();
    int n = txns.size();
    WindowChecker checker = new WindowChecker(config, new WindowChecker.Journal() {});
    int violations = 0;
    long a0 = ALLOCATION.getCurrentThreadAllocatedBytes();
    long t0 = THREADS.getCurrentThreadCpuTime();
    for (WindowTxn t : txns) {
      violations += checker.offer(t).violations().size();
    }
    long cpu = THREADS.getCurrentThreadCpuTime() - t0;
    long allocated = ALLOCATION.getCurrentThreadAllocatedBytes() - a0;
    txns.clear(); // only what the checker keeps counts towards the heap
    long heap = usedAfterGc() - before;
    if (checker.windowSize() < 0) {
      throw new IllegalStateException(); // keeps the checker reachable until the heap is measured
    }
    return new Run(cpu / 1e3 / n, (double) allocated / n, heap, violations);
  }

  private double timeLevel(List<WindowTxn> txns, Level level) {
    History h = new History();
    IncrementalChecker checker = new IncrementalChecker(h, level);
    long t0 = THREADS.getCurrentThreadCpuTime();
    for (int i = 0; i < txns.size(); i++) {
      WindowTxn txn = txns.get(i);
      int t = h.beginTxn(h.session(txn.session()), i);
      for (int o = 0, n = txn.opCount(); o < n; o++) {
        int key = h.key(txn.key(o));
        if (txn.kind(o) == OpKind.READ) {
          h.read(key, txn.value(o));
        } else {
          h.write(key, txn.value(o));
        }
      }
      h.end(txn.status());
      if (!checker.accept(t).isEmpty()) {
        throw new IllegalStateException("violation on a serial history at " + level.cliName());
      }
    }
    return (THREADS.getCurrentThreadCpuTime() - t0) / 1e3 / txns.size();
  }

  /** @return the family's transactions as the monitor receives them: ids {@code t<n>}, sessions {@code s<n>} */
  private static List<WindowTxn> build(SerialRegisterHistories.Shape shape, long seed) {
    List<WindowTxn> out = new ArrayList<>(shape.transactions());
    SerialRegisterHistories.generate(shape, seed, new SerialRegisterHistories.Sink() {
      private WindowTxn.Builder b;
      private long label;

      @Override
      public void begin(int session, long label) {
        this.label = label;
        b = WindowTxn.builder("t" + label, "s" + session, 1_000L * label, TxnStatus.COMMITTED);
      }

      @Override
      public void read(int key, long value) {
        b.read(new String("k" + key), value);
      }

      @Override
      public void write(int key, long value) {
        b.write(new String("k" + key), value);
      }

      @Override
      public void commit() {
        out.add(b.build());
      }
    });
    return out;
  }

  /**
   * The list-append family's window: no time bound, no read grace, and an evicted-write memory that
   * holds every append of the run. The family's keys live the whole run (uniform over N / 4 keys,
   * no rotation), so a list read holds elements appended long before the window; with the default
   * memory (a few per window transaction) their appenders are forgotten and the reads reported as
   * thin-air, which a workload that retires its keys after a bounded number of appends (Elle's, the
   * probe's {@code --max-appends-per-key}) does not meet.
   */
  private static WindowConfig listConfig(int window, int transactions) {
    return new WindowConfig(window, 0, 0, Math.max(16, SerialListAppendHistories.OPS_PER_TXN * transactions));
  }

  /** @return the list-append shape of {@code transactions}: rotating with {@code --max-appends-per-key}, else standard */
  private SerialListAppendHistories.Shape listShape(int transactions) {
    return maxAppendsPerKey > 0 ? SerialListAppendHistories.Shape.rotating(transactions, maxAppendsPerKey)
        : SerialListAppendHistories.Shape.standard(transactions);
  }

  /**
   * @param sessionPerTransaction whether transaction {@code t<n>} is alone in session {@code c<n>}
   * @return the list-append family's transactions ({@link SerialListAppendHistories} of {@code
   *     shape}) as the monitor receives them: ids {@code t<n>}, sessions {@code s<n>} (or {@code
   *     c<n>}), keys {@code k<n>}
   */
  private static List<WindowTxn> buildLists(SerialListAppendHistories.Shape shape, long seed,
      boolean sessionPerTransaction) {
    History h = SerialListAppendHistories.generate(shape, seed);
    List<WindowTxn> out = new ArrayList<>(h.txnCount());
    for (int t = 0; t < h.txnCount(); t++) {
      String session = sessionPerTransaction ? "c" + t : "s" + h.sessionOf(t);
      WindowTxn.Builder b = WindowTxn.builder("t" + t, session, 1_000L * t, h.status(t));
      for (int o = h.opStart(t); o < h.opEnd(t); o++) {
        String key = new String("k" + h.opKey(o));
        if (h.opKind(o) == OpKind.APPEND) {
          b.append(key, h.opValue(o));
        } else {
          long[] list = new long[h.listLength(o)];
          for (int i = 0; i < list.length; i++) {
            list[i] = h.listElement(o, i);
          }
          b.readList(key, list);
        }
      }
      out.add(b.build());
    }
    return out;
  }

  private static long usedAfterGc() {
    System.gc();
    System.gc();
    Runtime rt = Runtime.getRuntime();
    return rt.totalMemory() - rt.freeMemory();
  }

  private static double median(double[] xs) {
    double[] s = xs.clone();
    Arrays.sort(s);
    return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  }
}
