package io.isowatch.checker.format;

import static org.assertj.core.api.Assertions.assertThat;

import io.isowatch.checker.history.History;
import io.isowatch.checker.history.TxnStatus;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The JSON lines reader's line path ({@link JsonLinesCanonical}'s byte parsing, a Jackson parser per
 * other line, and its giving up to the token path) reads every file as the token path alone
 * ({@link JsonLinesReader#readTokens}) does: the same transactions, operations, key and session ids,
 * or the same error message.
 */
class JsonLinesPathsTest {
  private static final int TXNS = 5_000;

  @TempDir Path dir;

  /**
   * The writer's lines (the canonical shape), the same lines with blanks after every colon (each
   * read by Jackson alone), and the canonical lines with one object broken over two lines in the
   * middle of the file (the token path from the start) all read as the history written.
   */
  @Test
  void canonicalPaddedAndMultiLineFilesReadAsWritten() throws Exception {
    History written = randomHistory(new SplittableRandom(11));
    Path canonical = dir.resolve("canonical.jsonl");
    HistoryFiles.write(written, HistoryFormat.JSONL, canonical);
    String text = Files.readString(canonical);
    assertThat(text.lines().count()).isEqualTo(TXNS);
    Path padded = Files.writeString(dir.resolve("padded.jsonl"), text.replace("\":", "\": "));
    int middle = text.indexOf("\"ops\":[", text.length() / 2);
    Path broken = Files.writeString(dir.resolve("broken.jsonl"),
        text.substring(0, middle) + "\n" + text.substring(middle));

    String expected = describe(written);
    for (Path file : List.of(canonical, padded, broken)) {
      List<Long> progress = new ArrayList<>();
      assertThat(describe(HistoryFiles.read(file, HistoryFormat.JSONL, progress::add)))
          .as(file.getFileName().toString()).isEqualTo(expected);
      assertThat(describe(JsonLinesReader.readTokens(file, b -> { }))).isEqualTo(expected);
      assertThat(progress).isSorted().last().isEqualTo(Files.size(file));
    }
  }

  /**
   * Mutated files (the fuzzer's samples, and a random history's canonical lines, with one to four
   * bit flips, control bytes, deleted, duplicated or swapped ranges, odd tokens) read alike through
   * both paths, or fail with the same message.
   */
  @Test
  void mutatedFilesReadAlikeOrFailAlikeThroughBothPaths() throws Exception {
    long seed = Long.getLong("isowatch.fuzz.seed", 20L);
    HistoryMutator mutator = new HistoryMutator(seed);
    SplittableRandom rnd = new SplittableRandom(seed);
    Path sample = dir.resolve("sample.jsonl");
    HistoryFiles.write(smallHistory(rnd), HistoryFormat.JSONL, sample);
    byte[] canonical = Files.readAllBytes(sample);
    int[] outcomes = new int[2];
    for (int i = 0; i < 600; i++) {
      Path file = dir.resolve("f" + i + ".jsonl");
      if (i % 2 == 0) {
        byte[] b = canonical;
        for (int m = 1 + rnd.nextInt(3); m > 0; m--) {
          b = mutator.mutate(b, false);
        }
        Files.write(file, b);
      } else {
        Files.move(mutator.write(HistoryFormat.JSONL, Files.createDirectory(dir.resolve("d" + i))), file);
      }
      String bothPaths = outcome(() -> JsonLinesReader.read(file, b -> { }));
      String tokens = outcome(() -> JsonLinesReader.readTokens(file, b -> { }));
      assertThat(bothPaths).as("file %d, seed %d: %s", i, seed,
          new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1)).isEqualTo(tokens);
      outcomes[bothPaths.startsWith("error") ? 1 : 0]++;
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

  /** Registers and lists, every value shape and status, some labels negative. */
  private static History randomHistory(SplittableRandom rnd) {
    return history(rnd, TXNS, 40);
  }

  private static History smallHistory(SplittableRandom rnd) {
    return history(rnd, 12, 4);
  }

  private static History history(SplittableRandom rnd, int txns, int keys) {
    History h = new History();
    long[] next = new long[keys];
    List<List<Long>> lists = new ArrayList<>();
    for (int k = 0; k < keys; k++) {
      lists.add(new ArrayList<>());
    }
    TxnStatus[] statuses = TxnStatus.values();
    for (int t = 0; t < txns; t++) {
      int session = h.session("s" + rnd.nextInt(6));
      h.beginTxn(session, rnd.nextInt(10) == 0 ? -t - 1 : t + 1);
      for (int i = rnd.nextInt(9); i > 0; i--) {
        int k = rnd.nextInt(keys);
        boolean list = k % 2 == 1;
        int key = h.key((list ? "l" : "x") + k);
        int op = rnd.nextInt(6);
        if (list && op < 2) {
          long e = ++next[k] * (rnd.nextBoolean() ? 1 : -1);
          h.append(key, e);
          lists.get(k).add(e);
        } else if (list && op < 5) {
          long[] elems = lists.get(k).stream().mapToLong(Long::longValue).toArray();
          h.readList(key, elems, 0, rnd.nextInt(elems.length + 1));
        } else if (list) {
          h.readListUnknown(key);
        } else if (op < 2) {
          h.write(key, ++next[k] * 1_000_003L);
        } else {
          h.read(key, op == 2 ? History.NIL : op == 3 ? History.UNKNOWN_VALUE : next[k] * 1_000_003L);
        }
      }
      h.end(statuses[rnd.nextInt(statuses.length)]);
    }
    return h;
  }
}
