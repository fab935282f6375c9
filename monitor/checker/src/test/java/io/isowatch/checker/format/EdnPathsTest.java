package io.isowatch.checker.format;

import static org.assertj.core.api.Assertions.assertThat;

import io.isowatch.checker.history.History;
import io.isowatch.checker.history.TxnStatus;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The EDN reader's byte path ({@link EdnCanonical}) reads every file as its text path alone ({@link
 * EdnReader#read(Path, java.util.function.LongConsumer, boolean)} without it) does: the same
 * transactions, operations, key and session ids, or the same error message.
 */
class EdnPathsTest {
  private static final int TXNS = 5_000;

  @TempDir Path dir;

  /**
   * The writer's lines (the canonical shape), the same with integer keys and processes (also
   * canonical), and padded with blanks (text path only) read as the history written, register and
   * list-append alike.
   */
  @Test
  void canonicalIntegerAndPaddedFilesReadAsWritten() throws Exception {
    for (boolean lists : new boolean[] {false, true}) {
      History written = history(new SplittableRandom(lists ? 3 : 4), TXNS, 40, lists);
      Path canonical = dir.resolve("canonical-" + lists + ".edn");
      HistoryFiles.write(written, HistoryFormat.EDN, canonical);
      String text = Files.readString(canonical);
      assertThat(text.lines().count()).isEqualTo(TXNS);
      Path integers = Files.writeString(dir.resolve("integers-" + lists + ".edn"),
          text.replaceAll("\"([0-9]+)\"", "$1"));
      Path padded = Files.writeString(dir.resolve("padded-" + lists + ".edn"),
          text.replace(", :", ",  :").replace("] [", "]  ["));
      String expected = describe(written);
      for (Path file : List.of(canonical, integers, padded)) {
        List<Long> progress = new ArrayList<>();
        assertThat(describe(HistoryFiles.read(file, HistoryFormat.EDN, progress::add)))
            .as(file.getFileName().toString()).isEqualTo(expected);
        assertThat(describe(EdnReader.read(file, b -> { }, false))).isEqualTo(expected);
        assertThat(progress).last().isEqualTo(Files.size(file));
      }
    }
  }

  /**
   * Mutated files (a random history's canonical lines, and the fuzzer's samples, with one to four
   * bit flips, control bytes, deleted, duplicated or swapped ranges, odd tokens) read alike through
   * both paths, or fail with the same message.
   */
  @Test
  void mutatedFilesReadAlikeOrFailAlikeThroughBothPaths() throws Exception {
    long seed = Long.getLong("isowatch.fuzz.seed", 20L);
    HistoryMutator mutator = new HistoryMutator(seed);
    SplittableRandom rnd = new SplittableRandom(seed);
    byte[][] canonical = new byte[2][];
    for (int lists = 0; lists < 2; lists++) {
      Path sample = dir.resolve("sample-" + lists + ".edn");
      HistoryFiles.write(history(rnd, 12, 4, lists == 1), HistoryFormat.EDN, sample);
      canonical[lists] = Files.readAllBytes(sample);
    }
    int[] outcomes = new int[2];
    for (int i = 0; i < 600; i++) {
      Path file = dir.resolve("f" + i + ".edn");
      if (i % 3 != 0) {
        byte[] b = canonical[i % 3 - 1];
        for (int m = 1 + rnd.nextInt(3); m > 0; m--) {
          b = mutator.mutate(b, false);
        }
        Files.write(file, b);
      } else {
        Files.move(mutator.write(HistoryFormat.EDN, Files.createDirectory(dir.resolve("d" + i))), file);
      }
      String bytePath = outcome(() -> EdnReader.read(file, b -> { }, true));
      String textPath = outcome(() -> EdnReader.read(file, b -> { }, false));
      assertThat(bytePath).as("file %d, seed %d: %s", i, seed,
          new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1)).isEqualTo(textPath);
      outcomes[bytePath.startsWith("error") ? 1 : 0]++;
    }
    assertThat(outcomes[0]).as("files read").isGreaterThan(20);
    assertThat(outcomes[1]).as("files refused").isGreaterThan(200);
  }

  private interface Read {
    History read() throws Exception;
  }

  private static String outcome(Read read) {
    try {
      return describe(read.read());
    } catch (HistoryFormatException e) {
      return "error " + e.getMessage();
    } catch (Exception e) {
      return "crash " + e;
    }
  }

  /** @return the history's transactions and operations, then its key and session names by id */
  private static String describe(History h) {
    StringBuilder s = new StringBuilder(HistoryText.render(h)).append("keys:");
    for (int k = 0; k < h.keyCount(); k++) {
      s.append(' ').append(h.keyName(k));
    }
    s.append("\nsessions:");
    for (int x = 0; x < h.sessionCount(); x++) {
      s.append(' ').append(h.sessionName(x));
    }
    return s.toString();
  }

  /**
   * A register or a list-append history EDN can hold: numeric and named keys and sessions, every
   * status, initial-state reads only in committed transactions, unknown results only in others.
   */
  private static History history(SplittableRandom rnd, int txns, int keys, boolean lists) {
    History h = new History();
    long[] next = new long[keys];
    List<List<Long>> appended = new ArrayList<>();
    for (int k = 0; k < keys; k++) {
      appended.add(new ArrayList<>());
    }
    TxnStatus[] statuses = TxnStatus.values();
    for (int t = 0; t < txns; t++) {
      int s = rnd.nextInt(6);
      h.beginTxn(h.session(s % 2 == 0 ? Integer.toString(s) : "p" + s), t + 1);
      TxnStatus status = statuses[rnd.nextInt(statuses.length)];
      boolean committed = status == TxnStatus.COMMITTED;
      for (int i = rnd.nextInt(9); i > 0; i--) {
        int k = rnd.nextInt(keys);
        int key = h.key(k % 3 == 0 ? "k" + k : Integer.toString(k));
        int op = rnd.nextInt(4);
        if (lists && op < 2) {
          long e = ++next[k] * (rnd.nextBoolean() ? 1 : -1);
          h.append(key, e);
          appended.get(k).add(e);
        } else if (lists && (committed || op == 2)) {
          long[] elems = appended.get(k).stream().mapToLong(Long::longValue).toArray();
          h.readList(key, elems, 0, rnd.nextInt(elems.length + 1));
        } else if (lists) {
          h.readListUnknown(key);
        } else if (op < 2) {
          h.write(key, ++next[k] * 1_000_003L);
        } else if (op == 2 || next[k] == 0) {
          h.read(key, committed ? History.NIL : History.UNKNOWN_VALUE);
        } else {
          h.read(key, next[k] * 1_000_003L);
        }
      }
      h.end(status);
    }
    return h;
  }
}
