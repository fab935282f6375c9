package io.isowatch.checker.format;

import io.isowatch.checker.history.History;
import java.io.BufferedOutputStream;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.LongConsumer;

/**
 * Reads and writes history files in every {@link HistoryFormat}: the entry point for the CLI.
 *
 * <p>Readers stream their input (one line, record or transaction at a time) into a {@link History},
 * so a history of 10^6 transactions with 8 operations each loads in well under 4 GiB of heap. Each
 * format's conventions (initial values, aborted transactions, sessions, labels) are documented on
 * its reader class and in {@code docs/history-format.md}.
 */
public final class HistoryFiles {
  private HistoryFiles() {}

  /**
   * Tells the format of a history from its path and content; see {@code docs/history-format.md}.
   *
   * @param path a history file, or a directory for dbcop and Cobra
   * @return its format
   * @throws HistoryFormatException if the path does not exist, cannot be read, or its format cannot
   *     be told (the message asks for {@code --format})
   */
  public static HistoryFormat detect(Path path) throws HistoryFormatException {
    try {
      try {
        return FormatSniffer.detect(path);
      } catch (HistoryFormatException untold) {
        if (Files.isRegularFile(path)) {
          requireNotUtf16(path); // the reason the content could not be told, if it is that
        }
        throw untold;
      }
    } catch (IOException e) {
      throw HistoryFormatException.whole(path, "cannot read: " + e.getMessage(), null);
    }
  }

  /**
   * Reads a history.
   *
   * @param path a history file, or a directory for dbcop and Cobra
   * @param formatOrNull its format, or {@code null} to {@link #detect} it
   * @param progressBytes receives the number of bytes consumed so far (over all files of a
   *     directory), every few thousand lines or transactions and once at the end; may be {@code
   *     null}
   * @return the history, every transaction closed; at least one transaction
   * @throws HistoryFormatException for malformed input, naming file, line or byte offset, problem
   *     and what was expected; for input without any transaction (an empty file, blank lines,
   *     separators or {@code :invoke} lines only), {@code FILE: no transactions; expected at least
   *     one}, since an empty history would pass every check
   * @throws IOException if reading fails
   */
  public static History read(Path path, HistoryFormat formatOrNull, LongConsumer progressBytes)
      throws HistoryFormatException, IOException {
    HistoryFormat format = formatOrNull == null ? detect(path) : formatOrNull;
    if (Files.isRegularFile(path)
        && (format == HistoryFormat.PLUME || format == HistoryFormat.AWDIT || format == HistoryFormat.EDN)) {
      requireNotUtf16(path);
    }
    LongConsumer progress = progressBytes == null ? bytes -> { } : progressBytes;
    boolean directoryFormat = format == HistoryFormat.DBCOP || format == HistoryFormat.COBRA;
    if (!Files.exists(path)) {
      throw HistoryFormatException.whole(path, "no such file or directory", "a history file");
    }
    if (Files.isDirectory(path) && !directoryFormat) {
      throw HistoryFormatException.whole(path, "is a directory",
          "a " + format.cliName() + " file");
    }
    History h = readFormat(path, format, progress);
    if (h.txnCount() == 0) {
      throw HistoryFormatException.whole(path, "no transactions", "at least one");
    }
    return h;
  }

  /**
   * The format detection and the line readers of Plume, AWDIT and EDN files read UTF-8 (or ASCII);
   * a UTF-16 file would reach them as a garble of NUL bytes. JSON lines (told by their extension or
   * named with {@code --format jsonl}) need no such check: Jackson detects UTF-16 and 32.
   *
   * @throws HistoryFormatException if the file starts with a UTF-16 byte-order mark
   */
  private static void requireNotUtf16(Path path) throws HistoryFormatException, IOException {
    byte[] head = new byte[2];
    int n;
    try (InputStream in = Files.newInputStream(path)) {
      n = in.readNBytes(head, 0, 2);
    }
    if (n == 2 && ((head[0] == (byte) 0xFE && head[1] == (byte) 0xFF) || (head[0] == (byte) 0xFF && head[1] == (byte) 0xFE))) {
      throw HistoryFormatException.atByte(path, 0, "starts with a UTF-16 byte-order mark",
          "UTF-8 text (convert it, e.g. iconv -f UTF-16 -t UTF-8 FILE > FILE.utf8)");
    }
  }

  private static History readFormat(Path path, HistoryFormat format, LongConsumer progress)
      throws HistoryFormatException, IOException {
    switch (format) {
      case JSONL:
        return JsonLinesReader.read(path, progress);
      case PLUME:
        return PlumeReader.read(path, progress);
      case AWDIT:
        return AwditReader.read(path, progress);
      case EDN:
        return EdnReader.read(path, progress);
      case DBCOP:
        return DbcopReader.read(path, progress);
      case COBRA:
        if (!Files.isDirectory(path)) {
          throw HistoryFormatException.whole(path, "is not a directory",
              "a directory of Cobra *.log files");
        }
        return CobraReader.read(path, progress);
      default:
        throw new AssertionError(format);
    }
  }

  /**
   * Writes a history as JSON lines, Plume text or Elle EDN.
   *
   * @param h the history; every transaction closed
   * @param format {@link HistoryFormat#JSONL} (any history) or {@link HistoryFormat#PLUME}
   *     (register histories whose transactions all committed or aborted; see {@code PlumeWriter}) or
   *     {@link HistoryFormat#EDN} (register or list-append histories; see {@code EdnWriter})
   * @param out the file to create or replace
   * @throws UnsupportedOperationException for other formats, naming the writable ones
   * @throws IllegalArgumentException if Plume text or EDN cannot represent the history
   * @throws IOException if writing fails
   */
  public static void write(History h, HistoryFormat format, Path out) throws IOException {
    switch (format) {
      case JSONL:
        try (OutputStream os = new BufferedOutputStream(Files.newOutputStream(out), 1 << 16)) {
          JsonLinesWriter.write(h, os);
        }
        break;
      case PLUME:
        PlumeWriter.check(h);
        try (Writer w = new BufferedWriter(
            new OutputStreamWriter(Files.newOutputStream(out), StandardCharsets.UTF_8), 1 << 16)) {
          PlumeWriter.write(h, w);
        }
        break;
      case EDN:
        EdnWriter.check(h);
        try (Writer w = new BufferedWriter(
            new OutputStreamWriter(Files.newOutputStream(out), StandardCharsets.UTF_8), 1 << 16)) {
          EdnWriter.write(h, w);
        }
        break;
      default:
        throw new UnsupportedOperationException("cannot write " + format.cliName()
            + " histories; writable formats: " + HistoryFormat.JSONL.cliName() + ", "
            + HistoryFormat.PLUME.cliName() + ", " + HistoryFormat.EDN.cliName());
    }
  }
}
