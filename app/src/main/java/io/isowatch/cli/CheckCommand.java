package io.isowatch.cli;

import io.isowatch.checker.format.HistoryFormat;
import io.isowatch.checker.level.Level;
import io.isowatch.checker.polygraph.PolygraphChecker;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code isowatch check}: parses the options into a {@link CheckRequest} and runs {@link CheckRunner}. */
@Command(
    name = "check",
    mixinStandardHelpOptions = true,
    exitCodeOnInvalidInput = ExitCode.BAD_INPUT,
    exitCodeOnExecutionException = ExitCode.INTERNAL_ERROR,
    versionProvider = IsowatchCli.Version.class,
    sortOptions = false,
    header = "Check a history file at isolation levels from read uncommitted to serializable.",
    description = {
      "Checks a history file at one or more isolation levels and prints, per level, CONSISTENT or"
          + " VIOLATED, then each violation with its witness: the transactions involved and one"
          + " sentence per edge of the cycle (session order so, write-read wr, inferred commit"
          + " order co).",
      ""
    },
    footer = {
      "",
      "Levels (docs/levels.md), weakest first; all checks each and prints the ladder:",
      "  read-uncommitted    Adya PL-1 (G0)                      list-append histories",
      "  read-committed      axiomatic (AWDIT); on list-append histories also Adya PL-2",
      "  read-atomic         axiomatic (AWDIT)                   any history",
      "  causal              axiomatic (AWDIT)                   any history",
      "  snapshot-isolation  Adya PL-SI (G-single, lost update)  list-append histories",
      "  serializable        Adya PL-3 (G2-item)                 list-append histories",
      "Formats (docs/history-format.md; detected by name and content unless --format):",
      "  jsonl  isowatch JSON lines        plume  Plume/PolySI r(K,V,S,T) text",
      "  awdit  AWDIT test format          edn    Elle/Jepsen EDN",
      "  dbcop  dir with history.bincode   cobra  dir of Cobra *.log files",
      "",
      "Examples:",
      "  isowatch check history.jsonl",
      "  isowatch check --level causal ../shared/histories/real/dgraph-causal.plume.txt",
      "  isowatch check --format plume --level read-committed --json h.txt > out.json",
      "  isowatch check --all ../shared/histories/real/antidote.plume.txt",
      "  isowatch check --level all ../shared/histories/real/elle-paper-example.edn",
      "  isowatch check --report report.html --dot report.dot h.edn",
      "",
      "Exit codes: 0 consistent at every level, 1 violation found,",
      "            2 bad input or usage, 3 internal error,",
      "            4 no violation found but some verdict unknown."
    })
final class CheckCommand implements Callable<Integer> {
  @Spec private CommandSpec spec;

  @Option(names = "--format", paramLabel = "FORMAT", converter = FormatConverter.class,
      description = "History format: jsonl, plume, awdit, edn, dbcop, cobra (default: detected).")
  private HistoryFormat format;

  @Option(names = "--level", paramLabel = "LEVEL", split = ",", converter = LevelConverter.class,
      description = "Levels to check, comma separated, or all for the whole ladder"
          + " (default: read-committed,read-atomic,causal).")
  private List<Level> levels;

  @Option(names = "--no-session-order", negatable = false,
      description = "Check Adya's plain levels: no session order (so) edges in the dependency graph"
          + " (default: so edges included, as in the strong-session levels).")
  private boolean noSessionOrder;

  @Option(names = "--solver-budget", paramLabel = "N", converter = NumberRanges.Count.class,
      defaultValue = "" + PolygraphChecker.DEFAULT_MAX_CONFLICTS,
      description = "Snapshot isolation and serializable on register histories search the version"
          + " orders the reads leave open (the polygraph solver); stop after N conflicts and say"
          + " unknown, with the numbers (default: ${DEFAULT-VALUE}). The search is deterministic.")
  private int solverBudget;

  @Option(names = "--json", description = "Print one JSON object instead of text.")
  private boolean json;

  @Option(names = "--all",
      description = "Print every violation (default: at most " + TextReport.DEFAULT_LIMIT
          + " per level).")
  private boolean all;

  @Option(names = "--report", paramLabel = "FILE",
      description = "Also write the witnesses as a self-contained HTML page: each a picture"
          + " (transactions as boxes, edges as labelled arrows, the cycle highlighted) beside its"
          + " sentences; the violations the text shows (--all for every one).")
  private Path htmlReport;

  @Option(names = "--dot", paramLabel = "FILE",
      description = "Also write the same witnesses as one Graphviz DOT graph (dot -Tsvg FILE).")
  private Path dot;

  @Option(names = {"-q", "--quiet"}, description = "No progress bar on standard error.")
  private boolean quiet;

  @Parameters(paramLabel = "FILE",
      description = "The history: a file, or a directory for dbcop and cobra.")
  private Path file;

  @Override
  public Integer call() {
    boolean ladder = levels != null && levels.contains(null);
    List<Level> asked = levels == null ? CheckRequest.DEFAULT_LEVELS
        : ladder ? List.of(Level.values()) : levels;
    CheckRequest request = new CheckRequest(file, format, asked, json, all,
        IsowatchCli.progressAllowed(quiet), !noSessionOrder, ladder, htmlReport, dot, solverBudget);
    return new CheckRunner(spec.commandLine().getOut(), spec.commandLine().getErr()).run(request);
  }

  /** {@code --level} values by their command-line names ({@link Level#parse}); {@code all} is null. */
  static final class LevelConverter extends Choices<Level> {
    /** The six levels, then {@code all}. */
    LevelConverter() {
      super(v -> v.strip().equalsIgnoreCase("all") ? null : Level.parse(v),
          Stream.concat(names(Level::cliName, Level.values()).stream(), Stream.of("all")).toList());
    }
  }

  /** {@code --format} values by their command-line names ({@link HistoryFormat#parse}). */
  static final class FormatConverter extends Choices<HistoryFormat> {
    /** The formats {@link HistoryFormat#parse} reads. */
    FormatConverter() {
      super(HistoryFormat::parse, names(HistoryFormat::cliName, HistoryFormat.values()));
    }
  }
}
