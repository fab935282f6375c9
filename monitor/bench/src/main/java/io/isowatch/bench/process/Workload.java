package io.isowatch.bench.process;

import io.isowatch.bench.family.SerialRegisterHistories;
import io.isowatch.bench.family.StaircaseHistories;
import io.isowatch.checker.format.HistoryFiles;
import io.isowatch.checker.format.HistoryFormat;
import io.isowatch.checker.history.History;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * A history file both tools read: Plume text ({@code r(K,V,S,T)} lines, AWDIT's default format and
 * one of isowatch's), generated once and reused by every run.
 *
 * <ul>
 *   <li>{@link #register}: {@code n} transactions of {@value SerialRegisterHistories#OPS_PER_TXN}
 *       operations over {@value SerialRegisterHistories#SESSIONS} sessions and {@value #KEYS} keys,
 *       half reads, key skew 1.5, from a serial store ({@link SerialRegisterHistories}): consistent
 *       at every level, so each checker does its full work.
 *   <li>{@link #oneReader}: one reader transaction reading {@code reads} keys, each written by some
 *       of {@value #WRITERS} writer transactions in their own sessions ({@link
 *       StaircaseHistories.Shape#wideReader}'s shape with {@code reads} keys); consistent.
 * </ul>
 *
 * @param label the row's name in the table, e.g. {@code 10^5} or {@code one reader of 10^6 reads}
 * @param file the Plume file
 * @param transactions transactions in the file
 * @param ops operations in the file
 */
public record Workload(String label, Path file, int transactions, int ops) {
  /** Keys of the register workload (the 10^4). */
  public static final int KEYS = 10_000;

  /** Writer transactions of the one-reader workload. */
  public static final int WRITERS = 8;

  /** Seed of every generated history. */
  static final long SEED = 1;

  /**
   * Generates {@code dir/register-N.plume} unless it is already there.
   *
   * @param dir where the file goes
   * @param n transactions, at least 1
   * @return the workload
   * @throws IOException if the file cannot be written
   */
  public static Workload register(Path dir, int n) throws IOException {
    Path file = dir.resolve("register-" + n + ".plume");
    SerialRegisterHistories.Shape shape = new SerialRegisterHistories.Shape(n, KEYS, 0.5, 1.5);
    if (!Files.isRegularFile(file)) {
      write(SerialRegisterHistories.generate(shape, SEED), file);
    }
    return new Workload(power(n), file, n, n * SerialRegisterHistories.OPS_PER_TXN);
  }

  /**
   * Generates {@code dir/one-reader-R.plume} unless it is already there.
   *
   * @param dir where the file goes
   * @param reads reads of the reader transaction (= keys), at least 1
   * @return the workload
   * @throws IOException if the file cannot be written
   */
  public static Workload oneReader(Path dir, int reads) throws IOException {
    Path file = dir.resolve("one-reader-" + reads + ".plume");
    StaircaseHistories.Shape shape = new StaircaseHistories.Shape(1, WRITERS, reads, WRITERS, 1);
    if (!Files.isRegularFile(file)) {
      write(StaircaseHistories.generate(shape), file);
    }
    return new Workload("one reader of " + power(reads) + " reads", file, 1 + WRITERS, (int) shape.ops());
  }

  private static void write(History h, Path file) throws IOException {
    Path part = file.resolveSibling(file.getFileName() + ".part");
    HistoryFiles.write(h, HistoryFormat.PLUME, part);
    Files.move(part, file, StandardCopyOption.REPLACE_EXISTING);
  }

  /** @return {@code 10^k} for a power of ten, else the decimal number */
  static String power(long n) {
    int k = 0;
    long v = n;
    while (v >= 10 && v % 10 == 0) {
      v /= 10;
      k++;
    }
    return v == 1 && k > 1 ? "10^" + k : Long.toString(n);
  }
}
