package io.isowatch.cli;

import io.isowatch.checker.format.HistoryFormat;
import io.isowatch.checker.level.Level;
import java.nio.file.Path;
import java.util.List;

/**
 * What {@code isowatch check} was asked to do, after parsing.
 *
 * @param file the history file (or directory, for dbcop and Cobra)
 * @param formatOrNull the format given with {@code --format}, or {@code null} to detect it
 * @param levels the levels to check, in the order asked, without repeats; not empty
 * @param json whether to print one JSON object instead of text
 * @param all whether to print every violation instead of at most {@link TextReport#DEFAULT_LIMIT}
 *     per level (text only; JSON always holds every violation)
 * @param progress whether progress bars may be drawn on standard error
 * @param sessionOrder whether Adya's dependency graph includes session order ({@code so})
 * @param ladder whether {@code --level all} asked for the whole ladder
 * @param htmlReport where {@code --report} writes the HTML page of the witnesses, {@code null} for
 *     none
 * @param dot where {@code --dot} writes their Graphviz graph, {@code null} for none
 * @param solverBudget the polygraph search's budget, in conflicts ({@code --solver-budget})
 */
public record CheckRequest(
    Path file, HistoryFormat formatOrNull, List<Level> levels, boolean json, boolean all,
    boolean progress, boolean sessionOrder, boolean ladder, Path htmlReport, Path dot, long solverBudget) {
  /** The levels checked when {@code --level} is not given. */
  public static final List<Level> DEFAULT_LEVELS =
      List.of(Level.READ_COMMITTED, Level.READ_ATOMIC, Level.CAUSAL);

  /** Copies the level list without repeats. */
  public CheckRequest {
    levels = levels.stream().distinct().toList();
  }
}
