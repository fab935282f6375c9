package io.isowatch.checker.format;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Tells a history's format from its path and first line, for {@link HistoryFiles#detect}.
 *
 * <p>Rules, first match wins: a directory with {@code history.bincode} is dbcop, a directory with
 * {@code *.log} files is Cobra; extension {@code .edn} is EDN, {@code .jsonl} or {@code .json} is
 * JSON lines, {@code .bincode} is dbcop; otherwise the first non-blank line decides: a map with
 * {@code :type} is EDN, a JSON object is JSON lines, {@code r(} / {@code w(} is Plume, {@code r K
 * V}, {@code w K V} or a separator of {@code =} / {@code -} is AWDIT.
 */
final class FormatSniffer {
  private static final int SNIFF_BYTES = 1 << 16;
  private static final Pattern PLUME = Pattern.compile("[rw]\\(.*");
  private static final Pattern AWDIT = Pattern.compile("=+|-+|[rw]\\s+\\S+\\s+\\S+");
  private static final String EXPECTED = "a JSON object, an EDN map with :type, r(K,V,S,T) "
      + "(Plume) or 'r K V' (AWDIT); name the format with --format";

  private FormatSniffer() {}

  /**
   * @param path a history file or directory
   * @return its format by the rules of the class comment
   * @throws HistoryFormatException if the path is missing or no rule matches
   * @throws IOException if the path cannot be read
   */
  static HistoryFormat detect(Path path) throws HistoryFormatException, IOException {
    if (Files.isDirectory(path)) {
      if (Files.isRegularFile(path.resolve(DbcopReader.FILE_NAME))) {
        return HistoryFormat.DBCOP;
      }
      if (!CobraReader.logs(path).isEmpty()) {
        return HistoryFormat.COBRA;
      }
      throw HistoryFormatException.whole(path, "directory holds neither "
          + DbcopReader.FILE_NAME + " (dbcop) nor *.log files (Cobra)", "a history directory");
    }
    if (!Files.exists(path)) {
      throw HistoryFormatException.whole(path, "no such file or directory", "a history file");
    }
    String name = path.getFileName().toString().toLowerCase(Locale.ROOT);
    if (name.endsWith(".edn")) {
      return HistoryFormat.EDN;
    }
    if (name.endsWith(".jsonl") || name.endsWith(".json")) {
      return HistoryFormat.JSONL;
    }
    if (name.endsWith(".bincode")) {
      return HistoryFormat.DBCOP;
    }
    return byContent(path);
  }

  private static HistoryFormat byContent(Path path) throws HistoryFormatException, IOException {
    byte[] head;
    try (InputStream in = Files.newInputStream(path)) {
      head = in.readNBytes(SNIFF_BYTES);
    }
    String[] lines = new String(head, StandardCharsets.UTF_8).split("\n", -1);
    for (int i = 0; i < lines.length; i++) {
      String s = lines[i].strip();
      if (s.isEmpty()) {
        continue;
      }
      if (s.startsWith("{") && s.contains(":type")) {
        return HistoryFormat.EDN;
      }
      if (s.startsWith("{\"") || s.equals("{")) {
        return HistoryFormat.JSONL;
      }
      if (PLUME.matcher(s).matches()) {
        return HistoryFormat.PLUME;
      }
      if (AWDIT.matcher(s).matches()) {
        return HistoryFormat.AWDIT;
      }
      throw HistoryFormatException.atLine(path, i + 1,
          "cannot tell the history format from '" + HistoryFormatException.excerpt(s) + "'",
          EXPECTED);
    }
    throw HistoryFormatException.whole(path, "no operation in the first "
        + head.length + " bytes to tell the format from",
        "a history; or name its format with --format");
  }
}
