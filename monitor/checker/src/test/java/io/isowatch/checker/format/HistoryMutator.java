package io.isowatch.checker.format;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A test fixture for the history-file fuzzers: writes random and mutated histories of every
 * {@link HistoryFormat}, starting from the hand-written samples under {@code
 * src/test/resources/formats} (on the class path of this module's tests and of the test jar).
 *
 * <p>Mutations, one to four per file: flip a bit, set a byte to a delimiter or control byte,
 * delete, duplicate or truncate a range, swap two lines, insert a token that readers must treat
 * with care (numbers at and past the 64-bit range, nesting, reserved words of each format,
 * separators, invalid UTF-8), and, for the binary formats, overwrite 8 bytes with an extreme
 * 64-bit value in either byte order. One file in ten is random bytes or random tokens instead.
 * Deterministic for a seed.
 */
public final class HistoryMutator {
  private static final String[] TOKENS = {
    "-1", "0", "1", "9223372036854775807", "9223372036854775808", "-9223372036854775808",
    "-9223372036854775809", "99999999999999999999", "1e309", "1.5", "-0", "nil", "null", "true",
    "[]", "{}", "[[", "]]", "{{", "}}", "\"", "\\", "\\u0000", "\\ud800", "\\uZZZZ", "\"\\u00e9\\uZZ\"",
    "\"\\u12", "#inst", "#_",
    "#{", "#\"x\"", ":type", ":ok", ":invoke", ":info", ":fail", ":value", ":index", ":process",
    "[:r 1 nil]", "[:append 1 2]", "[:w 1 2]", "=====", "-----", "r(", "w(", "r(1,1,1,1)",
    "w 1 1", "r 1 1", "\"session\":", "\"txn\":", "\"ops\":", "\"f\":\"w\"", "\"status\":",
    "\"value\":[1,2]", "\r\n", "\n", "\t", "\u0000", "\u00ff", "\uffff", "\ud83d\ude00", ",", ":",
    "9".repeat(400), "[".repeat(300), "{:a ".repeat(300), "-".repeat(200), " ".repeat(1000)
  };
  private static final byte[] BYTES = {0, 1, 0x7f, (byte) 0x80, (byte) 0xc0, (byte) 0xff, '\n', '\r', '"',
      '[', ']', '{', '}', ',', ':', '-', '(', ')', ' ', '#', ';', '\\'};
  private static final long[] LONGS = {0, 1, -1, Long.MAX_VALUE, Long.MIN_VALUE, 1L << 31, 1L << 32,
      Integer.MAX_VALUE, 1L << 62, 255, 256};

  private final SplittableRandom rnd;

  /** @param seed the seed; equal seeds give equal files */
  public HistoryMutator(long seed) {
    rnd = new SplittableRandom(seed);
  }

  /** @return the sample files of {@code format}, as class-path resource names under {@code /formats/} */
  public static List<String> samples(HistoryFormat format) {
    return switch (format) {
      case JSONL -> List.of("sample.jsonl");
      case PLUME -> List.of("sample.plume.txt");
      case AWDIT -> List.of("sample.awdit.txt");
      case EDN -> List.of("list-append.edn", "rw-register.edn");
      case DBCOP -> List.of("sample.dbcop/history.bincode");
      case COBRA -> List.of("sample.cobra/c1.log", "sample.cobra/c2.log");
    };
  }

  /**
   * Writes one random or mutated history of {@code format} under {@code dir}.
   *
   * @param format the format
   * @param dir an empty directory
   * @return what to read: a file, or for dbcop and Cobra a directory
   */
  public Path write(HistoryFormat format, Path dir) {
    try {
      boolean binary = format == HistoryFormat.DBCOP || format == HistoryFormat.COBRA;
      if (format == HistoryFormat.DBCOP) {
        Files.write(dir.resolve(DbcopReader.FILE_NAME), next(sample("sample.dbcop/history.bincode"), true));
        return dir;
      }
      if (format == HistoryFormat.COBRA) {
        for (String name : samples(format)) {
          byte[] b = sample(name);
          Files.write(dir.resolve(name.substring(name.indexOf('/') + 1)), rnd.nextBoolean() ? next(b, true) : b);
        }
        return dir;
      }
      List<String> names = samples(format);
      Path file = dir.resolve("history." + (format == HistoryFormat.EDN ? "edn" : "txt"));
      Files.write(file, next(sample(names.get(rnd.nextInt(names.size()))), binary));
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private byte[] next(byte[] sample, boolean binary) {
    if (rnd.nextInt(10) == 0) {
      return random();
    }
    byte[] b = sample;
    for (int i = 1 + rnd.nextInt(4); i > 0; i--) {
      b = mutate(b, binary);
    }
    return b;
  }

  /** @return random bytes, or random tokens joined by blanks and newlines */
  byte[] random() {
    if (rnd.nextBoolean()) {
      byte[] b = new byte[rnd.nextInt(300)];
      for (int i = 0; i < b.length; i++) {
        b[i] = (byte) rnd.nextInt(256);
      }
      return b;
    }
    StringBuilder s = new StringBuilder();
    for (int i = rnd.nextInt(40); i > 0; i--) {
      s.append(TOKENS[rnd.nextInt(TOKENS.length)]).append(rnd.nextInt(4) == 0 ? "\n" : " ");
    }
    return s.toString().getBytes(StandardCharsets.UTF_8);
  }

  /** @return {@code b} with one mutation applied (a new array) */
  byte[] mutate(byte[] b, boolean binary) {
    int n = b.length;
    int kind = rnd.nextInt(binary ? 8 : 7);
    if (n == 0) {
      return insert(b, 0, TOKENS[rnd.nextInt(TOKENS.length)].getBytes(StandardCharsets.UTF_8));
    }
    int at = rnd.nextInt(n);
    switch (kind) {
      case 0: {
        byte[] c = b.clone();
        c[at] ^= (byte) (1 << rnd.nextInt(8));
        return c;
      }
      case 1: {
        byte[] c = b.clone();
        c[at] = BYTES[rnd.nextInt(BYTES.length)];
        return c;
      }
      case 2: {
        int end = Math.min(n, at + 1 + rnd.nextInt(Math.max(1, n / 4)));
        byte[] c = new byte[n - (end - at)];
        System.arraycopy(b, 0, c, 0, at);
        System.arraycopy(b, end, c, at, n - end);
        return c;
      }
      case 3: {
        int end = Math.min(n, at + 1 + rnd.nextInt(Math.max(1, n / 4)));
        return insert(b, rnd.nextInt(n + 1), Arrays.copyOfRange(b, at, end));
      }
      case 4:
        return Arrays.copyOf(b, at);
      case 5:
        return swapLines(b);
      case 6:
        return insert(b, at, TOKENS[rnd.nextInt(TOKENS.length)].getBytes(StandardCharsets.UTF_8));
      default: {
        byte[] c = b.clone();
        int start = Math.max(0, Math.min(n - 8, at));
        ByteOrder order = rnd.nextBoolean() ? ByteOrder.LITTLE_ENDIAN : ByteOrder.BIG_ENDIAN;
        long v = LONGS[rnd.nextInt(LONGS.length)];
        ByteBuffer.wrap(c, start, Math.min(8, n - start)).order(order)
            .put(Arrays.copyOf(ByteBuffer.allocate(8).order(order).putLong(v).array(), Math.min(8, n - start)));
        return c;
      }
    }
  }

  private byte[] swapLines(byte[] b) {
    String[] lines = new String(b, StandardCharsets.ISO_8859_1).split("\n", -1);
    if (lines.length < 2) {
      return b.clone();
    }
    int i = rnd.nextInt(lines.length);
    int j = rnd.nextInt(lines.length);
    String t = lines[i];
    lines[i] = lines[j];
    lines[j] = t;
    return String.join("\n", lines).getBytes(StandardCharsets.ISO_8859_1);
  }

  private static byte[] insert(byte[] b, int at, byte[] what) {
    byte[] c = new byte[b.length + what.length];
    System.arraycopy(b, 0, c, 0, at);
    System.arraycopy(what, 0, c, at, what.length);
    System.arraycopy(b, at, c, at + what.length, b.length - at);
    return c;
  }

  private static byte[] sample(String name) throws IOException {
    try (InputStream in = HistoryMutator.class.getResourceAsStream("/formats/" + name)) {
      if (in == null) {
        throw new IOException("no resource /formats/" + name);
      }
      return in.readAllBytes();
    }
  }
}
