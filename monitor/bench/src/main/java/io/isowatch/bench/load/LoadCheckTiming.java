package io.isowatch.bench.load;

import io.isowatch.bench.family.SerialRegisterHistories;
import io.isowatch.checker.LevelPlan;
import io.isowatch.checker.format.HistoryFiles;
import io.isowatch.checker.format.HistoryFormatException;
import io.isowatch.checker.format.HistoryFormat;
import io.isowatch.checker.history.History;
import io.isowatch.checker.level.Level;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes the register histories of issue 20's benchmark as Plume text, AWDIT, JSON lines and EDN
 * files, and times one load ({@link HistoryFiles#read}) and one check of a file in the current JVM,
 * the two phases of {@code isowatch check}. Run it in a fresh JVM per measurement (the script {@code
 * monitor/bench/load-check-timing.sh} interleaves two classpaths, before and after a change, and
 * keeps the minimum of several runs).
 *
 * <p>Usage: {@code write DIR N} writes {@code DIR/serial-N.plume} and {@code DIR/serial-N.awdit}
 * ({@code N} transactions, {@value SerialRegisterHistories#OPS_PER_TXN} operations each, {@value
 * SerialRegisterHistories#SESSIONS} sessions, 10^4 keys, seed 1), then the Plume file's history as
 * {@code DIR/serial-N.jsonl} and {@code DIR/serial-N.edn} ({@link HistoryFiles#write}'s writers);
 * {@code run FILE FORMAT LEVEL}
 * prints {@code load_ms check_ms transactions operations load_cpu_ms check_cpu_ms} on one line,
 * times in milliseconds of wall clock, then of the main thread's CPU time (steadier than the wall
 * clock on a shared machine; it leaves out the collector's and the compiler's threads).
 */
public final class LoadCheckTiming {
  private static final int KEYS = 10_000;

  private LoadCheckTiming() {}

  /**
   * @param args {@code write DIR N} or {@code run FILE FORMAT LEVEL} (format and level as the CLI
   *     names them, e.g. {@code plume read-committed})
   * @throws Exception if writing or reading fails, or the arguments are not one of those forms
   */
  public static void main(String[] args) throws Exception {
    if (args.length == 3 && args[0].equals("write")) {
      write(Path.of(args[1]), Integer.parseInt(args[2]));
    } else if (args.length == 4 && args[0].equals("run")) {
      run(Path.of(args[1]), HistoryFormat.parse(args[2]), Level.parse(args[3]));
    } else {
      throw new IllegalArgumentException("usage: write DIR N | run FILE FORMAT LEVEL");
    }
  }

  private static void run(Path file, HistoryFormat format, Level level) throws Exception {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    long start = System.nanoTime();
    long startCpu = threads.getCurrentThreadCpuTime();
    History h = HistoryFiles.read(file, format, null);
    long loaded = System.nanoTime();
    long loadedCpu = threads.getCurrentThreadCpuTime();
    boolean listAppend = LevelPlan.hasListAppend(h);
    for (LevelPlan.Check check : LevelPlan.checks(List.of(level), listAppend)) {
      check.batch(true).check(h);
    }
    long checked = System.nanoTime();
    long checkedCpu = threads.getCurrentThreadCpuTime();
    System.out.println((loaded - start) / 1_000_000 + " " + (checked - loaded) / 1_000_000 + " "
        + h.txnCount() + " " + h.opCount() + " " + (loadedCpu - startCpu) / 1_000_000 + " "
        + (checkedCpu - loadedCpu) / 1_000_000);
  }

  private static void write(Path dir, int transactions) throws IOException, HistoryFormatException {
    Files.createDirectories(dir);
    SerialRegisterHistories.Shape shape = new SerialRegisterHistories.Shape(transactions, KEYS, 0.5, 1.5);
    List<StringBuilder> sessions = new ArrayList<>();
    for (int s = 0; s < SerialRegisterHistories.SESSIONS; s++) {
      sessions.add(new StringBuilder());
    }
    try (Writer plume = Files.newBufferedWriter(dir.resolve("serial-" + transactions + ".plume"),
        StandardCharsets.UTF_8)) {
      SerialRegisterHistories.generate(shape, 1, new SerialRegisterHistories.Sink() {
        private int session;
        private long label;

        @Override
        public void begin(int s, long l) {
          session = s;
          label = l;
          sessions.get(s).append("---\n");
        }

        @Override
        public void read(int key, long value) {
          op('r', key, value);
        }

        @Override
        public void write(int key, long value) {
          op('w', key, value);
        }

        private void op(char kind, int key, long value) {
          long v = value == History.NIL ? 0 : value;
          try {
            plume.write(kind + "(" + key + "," + v + "," + session + "," + label + ")\n");
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
          sessions.get(session).append(kind).append(' ').append(key).append(' ').append(v).append('\n');
        }

        @Override
        public void commit() {}
      });
    }
    History h = HistoryFiles.read(dir.resolve("serial-" + transactions + ".plume"), HistoryFormat.PLUME, null);
    HistoryFiles.write(h, HistoryFormat.JSONL, dir.resolve("serial-" + transactions + ".jsonl"));
    HistoryFiles.write(h, HistoryFormat.EDN, dir.resolve("serial-" + transactions + ".edn"));
    try (Writer awdit = new BufferedWriter(Files.newBufferedWriter(
        dir.resolve("serial-" + transactions + ".awdit"), StandardCharsets.UTF_8))) {
      for (int k = 0; k < KEYS; k++) {
        awdit.write("w " + k + " 0\n"); // AWDIT has no implicit initial value
      }
      for (StringBuilder s : sessions) {
        awdit.write("===\n");
        awdit.append(s);
      }
    }
  }
}
