package io.isowatch.enginesim.export;

import io.isowatch.checker.format.HistoryFiles;
import io.isowatch.checker.format.HistoryFormat;
import io.isowatch.checker.history.History;
import io.isowatch.checker.history.OpKind;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes a simulated history in the formats other tools read: isowatch JSON lines (always), Plume
 * text (rw-register histories: Plume, PolySI, {@code isowatch check}) and Elle EDN (list-append
 * histories: Elle, {@code isowatch check}). The writers are the checker's ({@link HistoryFiles#write});
 * {@code docs/history-format.md} describes each format.
 */
public final class SimExport {
  private SimExport() {}

  /**
   * @param h a simulated history (every transaction committed or aborted)
   * @return the formats {@link #writeAll} writes for it: JSON lines, then Plume text for a register
   *     history or EDN for a list-append one
   */
  public static List<HistoryFormat> formatsFor(History h) {
    return isListAppend(h)
        ? List.of(HistoryFormat.JSONL, HistoryFormat.EDN)
        : List.of(HistoryFormat.JSONL, HistoryFormat.PLUME);
  }

  /**
   * Writes {@code h} to {@code dir/<name>.jsonl} and, per {@link #formatsFor}, {@code
   * dir/<name>.plume.txt} or {@code dir/<name>.edn}.
   *
   * @return the files written, in the order of {@link #formatsFor}
   * @throws IllegalArgumentException if a format cannot represent {@code h} (e.g. an aborted
   *     transaction that read a register's initial value has no EDN form; register histories get
   *     Plume text instead)
   * @throws IOException if writing fails
   */
  public static List<Path> writeAll(History h, Path dir, String name) throws IOException {
    List<Path> out = new ArrayList<>();
    for (HistoryFormat f : formatsFor(h)) {
      Path p = dir.resolve(name + suffix(f));
      HistoryFiles.write(h, f, p);
      out.add(p);
    }
    return out;
  }

  /** @return the file name suffix used for {@code format}: {@code .jsonl}, {@code .plume.txt}, {@code .edn} */
  public static String suffix(HistoryFormat format) {
    return switch (format) {
      case PLUME -> ".plume.txt";
      case EDN -> ".edn";
      default -> "." + format.cliName();
    };
  }

  /** @return whether {@code h} has a list operation (append or list read) */
  public static boolean isListAppend(History h) {
    for (int op = 0, n = h.opCount(); op < n; op++) {
      if (h.opKind(op) == OpKind.APPEND || h.opKind(op) == OpKind.READ_LIST) {
        return true;
      }
    }
    return false;
  }
}
