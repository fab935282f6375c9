package io.isowatch.checker.reference;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Predicate;

/**
 * Minimises a failing history written in the notation of {@link
 * io.isowatch.checker.history.TestHistories} by greedy deletion (in the spirit of delta debugging,
 * Zeller &amp; Hildebrandt, TSE 2002): drop whole transactions, then single operations, then make
 * aborted or unknown transactions committed, as long as the failure persists, until no single step
 * keeps it. Each candidate costs one predicate call; histories of ~30 lines shrink in a few hundred.
 */
public final class HistoryShrinker {
  private HistoryShrinker() {}

  /**
   * @param text a history, one transaction per line
   * @param fails whether a candidate text still shows the failure; must hold for {@code text}
   * @return a text for which {@code fails} holds and no single deletion keeps it failing
   */
  public static String minimise(String text, Predicate<String> fails) {
    List<String> lines = new ArrayList<>(Arrays.asList(text.strip().split("\n")));
    boolean progress = true;
    while (progress) {
      progress = false;
      for (int i = lines.size() - 1; i >= 0; i--) {
        List<String> candidate = new ArrayList<>(lines);
        candidate.remove(i);
        if (fails.test(String.join("\n", candidate))) {
          lines = candidate;
          progress = true;
        }
      }
      for (int i = 0; i < lines.size(); i++) {
        for (String shorter : variants(lines.get(i))) {
          List<String> candidate = new ArrayList<>(lines);
          candidate.set(i, shorter);
          if (fails.test(String.join("\n", candidate))) {
            lines = candidate;
            progress = true;
            break;
          }
        }
      }
    }
    return String.join("\n", lines);
  }

  /** @return the line without one of its operations, each in turn, then with its status dropped */
  private static List<String> variants(String line) {
    int bar = line.indexOf('|');
    String status = bar < 0 ? "" : line.substring(bar);
    String body = bar < 0 ? line : line.substring(0, bar).strip();
    int colon = body.indexOf(':');
    String head = body.substring(0, colon + 1);
    List<String> ops = new ArrayList<>();
    for (String op : body.substring(colon + 1).split(",")) {
      if (!op.isBlank()) {
        ops.add(op.strip());
      }
    }
    List<String> out = new ArrayList<>();
    for (int i = 0; i < ops.size(); i++) {
      List<String> rest = new ArrayList<>(ops);
      rest.remove(i);
      out.add((head + " " + String.join(", ", rest) + (status.isEmpty() ? "" : " " + status)).strip());
    }
    if (!status.isEmpty()) {
      out.add(body);
    }
    return out;
  }
}
