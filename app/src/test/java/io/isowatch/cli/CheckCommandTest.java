package io.isowatch.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Model.UsageMessageSpec;

/** {@code isowatch check} run in-process on the bundled samples and on bad input. */
class CheckCommandTest {
  @TempDir Path tmp;

  /**
   * A history of 4,000 transactions each in its own session needs 4,000 x 4,000 entries for causal
   * consistency (AWDIT's O(n k)); in a 48 MiB heap the check runs out of memory, which is one line
   * on standard error and exit 3, not a stack trace.
   */
  @Test
  void runningOutOfHeapIsOneLineAndExitThree() throws Exception {
    Path file = tmp.resolve("a-session-per-transaction.plume");
    List<String> lines = new ArrayList<>();
    long[] last = new long[50];
    for (int t = 0; t < 4000; t++) {
      int k = t % 50;
      lines.add("r(" + k + "," + last[k] + "," + t + "," + t + ")");
      lines.add("w(" + k + "," + (t + 1) + "," + t + "," + t + ")");
      last[k] = t + 1;
    }
    Files.write(file, lines);
    Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx48m",
        "-cp", System.getProperty("java.class.path"), IsowatchCli.class.getName(), "check", "--level", "causal",
        file.toString())
        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .start();
    String err = new String(p.getErrorStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    assertThat(p.waitFor()).isEqualTo(ExitCode.INTERNAL_ERROR);
    assertThat(err).matches(java.util.regex.Pattern.quote("isowatch check: " + file
        + ": out of memory in the causal check (the JVM's heap is at most ") + "\\d+" + java.util.regex.Pattern.quote(" MiB); causal"
        + " consistency needs memory for transactions x sessions (docs/PERFORMANCE.md): give the JVM more, e.g."
        + " ISOWATCH_JAVA_OPTS=-Xmx16g, or check weaker levels with --level") + "\\R");
  }

  /** Running out of heap before any check ran is said to be the reading of the history. */
  @Test
  void runningOutOfHeapWhileReadingSaysSo() {
    assertThat(CheckRunner.outOfMemory(new OutOfMemoryError("Java heap space")))
        .matches(java.util.regex.Pattern.quote("out of memory while reading the history (the JVM's heap is at most ")
            + "\\d+" + java.util.regex.Pattern.quote(" MiB): give the JVM more, e.g. ISOWATCH_JAVA_OPTS=-Xmx16g"));
  }

  @Test
  void consistentSampleExitsZero() {
    CliRun run = CliRun.of("check", CliRun.sample("consistent.jsonl").toString());
    assertThat(run.exitCode()).isEqualTo(ExitCode.CONSISTENT);
    assertThat(run.firstLines(4)).containsExactly(
        "read-committed: CONSISTENT",
        "read-atomic: CONSISTENT",
        "causal: CONSISTENT",
        "");
    assertThat(run.out().lines().toList().get(4))
        .startsWith(CliRun.sample("consistent.jsonl") + " (jsonl): 5 transactions, 12 operations,"
            + " 3 sessions, 3 keys; ms: load ");
    assertThat(run.err()).isEmpty();
  }

  @Test
  void readCommittedViolationPrintsWitnessInWords() {
    CliRun run = CliRun.of("check", "--level", "read-committed",
        CliRun.sample("read-committed-violation.jsonl").toString());
    assertThat(run.exitCode()).isEqualTo(ExitCode.VIOLATION);
    assertThat(run.firstLines(9)).containsExactly(
        "read-committed: VIOLATED (1 violation)",
        "",
        "[read-committed] violation 1 of 1: commit-order-cycle (weakest level broken: read-committed)",
        "  cycle T1 -> T2 -> T1 (2 edges, 1 inferred commit order)",
        "  T1 (session writer): w(x)=1",
        "  T2 (session writer): w(x)=2 w(y)=2",
        "  T3 (session reader): r(y)=2 r(x)=2 r(x)=2 r(x)=1",
        "  so: T1 precedes T2 in session writer",
        "  co: T2 precedes T1 in commit order because T3 read x from T1 after reading from T2,"
            + " which also writes x");
  }

  /** Issue 16: an aborted element in the middle of a list read breaks causal too, not only Adya's PL-2. */
  @Test
  void abortedElementInTheMiddleOfAListBreaksCausal() throws IOException {
    Path edn = tmp.resolve("g1a-in-list.edn");
    Files.writeString(edn, String.join("\n",
        "{:type :ok, :process 0, :value [[:append 1 1]]}",
        "{:type :fail, :process 1, :value [[:append 1 2]]}",
        "{:type :ok, :process 2, :value [[:append 1 3] [:r 1 [1 2 3]]]}", ""));
    CliRun run = CliRun.of("check", "--level", "causal", edn.toString());
    assertThat(run.exitCode()).isEqualTo(ExitCode.VIOLATION);
    assertThat(run.firstLines(6)).containsExactly(
        "causal: VIOLATED (1 violation)",
        "",
        "[causal] violation 1 of 1: G1a (weakest level broken: read-committed)",
        "  T3 read key 1 = [1, 2, 3] from T2, which aborted",
        "  T3 (session 2): append(1,3) r(1)=[1, 2, 3]",
        "  T2 (session 1, aborted): append(1,2)");
  }

  /**
   * Issue 16: two reads that order two appends both ways: an incompatible order for Adya (which Elle
   * counts as G1a, forbidden from read committed up: {@code ForbiddenAnomalies}), a version-order cycle
   * for the axioms; read uncommitted holds.
   */
  @Test
  void writeCycleOnOneKeyBreaksAxiomaticReadCommitted() throws IOException {
    Path edn = tmp.resolve("g0-one-key.edn");
    Files.writeString(edn, String.join("\n",
        "{:type :ok, :process 0, :value [[:append 1 1]]}",
        "{:type :ok, :process 1, :value [[:append 1 2]]}",
        "{:type :ok, :process 2, :value [[:r 1 [1 2]]]}",
        "{:type :ok, :process 3, :value [[:r 1 [2 1]]]}", ""));
    CliRun run = CliRun.of("check", "--level", "all", edn.toString());
    assertThat(run.exitCode()).isEqualTo(ExitCode.VIOLATION);
    assertThat(run.firstLines(7)).containsExactly(
        "read-uncommitted: CONSISTENT",
        "read-committed: VIOLATED (1 violation)",
        "read-committed (Adya PL-2): VIOLATED (1 violation)",
        "read-atomic: VIOLATED (1 violation)",
        "causal: VIOLATED (1 violation)",
        "snapshot-isolation: VIOLATED (1 violation)",
        "serializable: VIOLATED (1 violation)");
    assertThat(run.out().lines().toList()).containsSequence(
        "[read-committed, read-atomic, causal] violation 1 of 2: commit-order-cycle (weakest level broken: read-committed)",
        "  cycle T1 -> T2 -> T1 (2 edges)",
        "  T1 (session 0): append(1,1)",
        "  T2 (session 1): append(1,2)",
        "  T3 (session 2): r(1)=[1, 2]",
        "  T4 (session 3): r(1)=[2, 1]",
        "  ww: T2 appended 2 to key 1 after T1 appended 1, as T3's read of key 1 shows",
        "  ww: T1 appended 1 to key 1 after T2 appended 2, as T4's read of key 1 shows");
  }

  @Test
  void reportAndDotDrawTheWitnessesTheTextShows() throws IOException {
    Path html = tmp.resolve("report.html");
    Path dot = tmp.resolve("report.dot");
    CliRun run = CliRun.of("check", "--level", "read-committed", "--quiet", "--report", html.toString(),
        "--dot", dot.toString(), CliRun.sample("read-committed-violation.jsonl").toString());
    assertThat(run.exitCode()).isEqualTo(ExitCode.VIOLATION);
    assertThat(run.err()).isEmpty();
    org.jsoup.nodes.Document doc = org.jsoup.Jsoup.parse(Files.readString(html));
    assertThat(doc.title()).isEqualTo("isowatch check " + CliRun.sample("read-committed-violation.jsonl"));
    assertThat(doc.select("body > p").eachText()).startsWith("read-committed: VIOLATED (1 violation)");
    assertThat(doc.select("section.witness h2").eachText()).containsExactly(
        "[read-committed] violation 1 of 1: commit-order-cycle (weakest level broken: read-committed)");
    assertThat(doc.select("svg g.edge-label text").eachText()).containsExactly("so", "co x");
    assertThat(doc.select("ul.txns li").eachText()).containsExactly(
        "T1 (session writer): w(x)=1", "T2 (session writer): w(x)=2 w(y)=2",
        "T3 (session reader): r(y)=2 r(x)=2 r(x)=2 r(x)=1");
    assertThat(doc.select("script")).isEmpty();
    assertThat(Files.readAllLines(dot)).contains(
        "    label=\"[read-committed] violation 1 of 1: commit-order-cycle (weakest level broken: read-committed)\";",
        "    \"1:T1\" -> \"1:T2\" [label=\"so\", tooltip=\"T1 precedes T2 in session writer\", color=\"#546e7a\", penwidth=2.5];");
  }

  @Test
  void aReportThatCannotBeWrittenIsExitCodeTwoAfterTheText() {
    Path html = tmp.resolve("no-such-dir").resolve("report.html");
    CliRun run = CliRun.of("check", "--level", "read-committed", "--quiet", "--report", html.toString(),
        CliRun.sample("read-committed-violation.jsonl").toString());
    assertThat(run.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
    assertThat(run.firstLines(1)).containsExactly("read-committed: VIOLATED (1 violation)");
    assertThat(run.err()).isEqualTo("isowatch check: cannot write " + html + ": directory "
        + html.getParent().toAbsolutePath() + " does not exist\n");
  }

  /**
   * An output naming the history (however spelt: {@code ./x}, {@code d/../x}, a symbolic link) or
   * both outputs naming one file is refused before anything is read: exit code 2, no report, the
   * history untouched.
   */
  @Test
  void anOutputOverTheHistoryOrTheOtherOutputIsRefused() throws IOException {
    Path history = tmp.resolve("h.jsonl");
    Files.copy(CliRun.sample("read-committed-violation.jsonl"), history);
    String text = Files.readString(history);
    Files.createDirectory(tmp.resolve("d"));
    Files.createSymbolicLink(tmp.resolve("link.jsonl"), history);
    String dotted = tmp.resolve("d").resolve("..").resolve("h.jsonl").toString();
    String viaLink = tmp.resolve("link.jsonl").toString();
    assertThat(List.of(
        CliRun.of("check", "--report", history.toString(), history.toString()),
        CliRun.of("check", "--dot", dotted, history.toString()),
        CliRun.of("check", "--report", tmp.resolve("r").toString(), "--dot", viaLink, history.toString())))
        .allSatisfy(run -> {
          assertThat(run.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
          assertThat(run.out()).isEmpty();
        })
        .extracting(CliRun::err).containsExactly(
            "isowatch check: --report " + history + " is the history file " + history
                + "; refusing to overwrite it\n",
            "isowatch check: --dot " + dotted + " is the history file " + history
                + "; refusing to overwrite it\n",
            "isowatch check: --dot " + viaLink + " is the history file " + history
                + "; refusing to overwrite it\n");
    assertThat(Files.readString(history)).isEqualTo(text);
    Path out = tmp.resolve("out");
    CliRun same = CliRun.of("check", "--report", out.toString(), "--dot",
        tmp.resolve("d").resolve("..").resolve("out").toString(), history.toString());
    assertThat(same.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
    assertThat(same.out()).isEmpty();
    assertThat(same.err()).isEqualTo("isowatch check: --report " + out + " and --dot "
        + tmp.resolve("d").resolve("..").resolve("out") + " are the same file; give each its own\n");
    assertThat(out).doesNotExist();
  }

  /** Relative paths: {@code ./h.jsonl} and {@code h.jsonl} are one file. */
  @Test
  void aRelativeOutputOverTheHistoryIsRefused() throws IOException {
    Path history = Path.of("target", "refuse-" + System.nanoTime() + ".jsonl");
    Files.copy(CliRun.sample("consistent.jsonl"), history);
    try {
      CliRun run = CliRun.of("check", "--report", "./" + history, history.toString());
      assertThat(run.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
      assertThat(run.err()).isEqualTo("isowatch check: --report ./" + history + " is the history file "
          + history + "; refusing to overwrite it\n");
    } finally {
      Files.delete(history);
    }
  }

  /** Overwriting an existing file that is neither the history nor the other output is normal. */
  @Test
  void anExistingUnrelatedReportIsOverwritten() throws IOException {
    Path html = tmp.resolve("old.html");
    Files.writeString(html, "old");
    CliRun run = CliRun.of("check", "--level", "read-committed", "--report", html.toString(),
        CliRun.sample("consistent.jsonl").toString());
    assertThat(run.exitCode()).isEqualTo(ExitCode.CONSISTENT);
    assertThat(Files.readString(html)).startsWith("<!DOCTYPE html>");
  }

  @Test
  void causalOnlyViolation() {
    CliRun run = CliRun.of("check", "--level", "read-committed,read-atomic,causal", "--quiet",
        CliRun.sample("causal-violation.jsonl").toString());
    assertThat(run.exitCode()).isEqualTo(ExitCode.VIOLATION);
    assertThat(run.firstLines(5)).containsExactly(
        "read-committed: CONSISTENT",
        "read-atomic: CONSISTENT",
        "causal: VIOLATED (1 violation)",
        "",
        "[causal] violation 1 of 1: commit-order-cycle (weakest level broken: causal)");
  }

  @Test
  void onlyTheRequestedLevelsAreChecked() {
    CliRun run = CliRun.of("check", "--level", "read-atomic",
        CliRun.sample("causal-violation.jsonl").toString());
    assertThat(run.exitCode()).isEqualTo(ExitCode.CONSISTENT);
    assertThat(run.firstLines(2)).containsExactly("read-atomic: CONSISTENT", "");
  }

  /** A violation every checked level finds (the same anomaly and witness) is printed once, with those levels. */
  @Test
  void aViolationSeveralLevelsFindIsPrintedOnceWithItsLevels() throws IOException {
    Path file = tmp.resolve("thin-air.jsonl");
    Files.writeString(file, "{\"session\":\"s\",\"txn\":1,\"ops\":[{\"f\":\"w\",\"key\":\"x\",\"value\":1}]}\n"
        + "{\"session\":\"t\",\"txn\":2,\"ops\":[{\"f\":\"r\",\"key\":\"x\",\"value\":7}]}\n");
    CliRun run = CliRun.of("check", "--quiet", file.toString());
    assertThat(run.exitCode()).isEqualTo(ExitCode.VIOLATION);
    List<String> lines = run.out().lines().toList();
    assertThat(lines.subList(0, lines.size() - 1)).containsExactly(
        "read-committed: VIOLATED (1 violation)",
        "read-atomic: VIOLATED (1 violation)",
        "causal: VIOLATED (1 violation)",
        "",
        "[read-committed, read-atomic, causal] violation 1 of 1: thin-air-read (weakest level broken: read-committed)",
        "  T2 read x = 7, which no transaction wrote",
        "  T2 (session t): r(x)=7",
        "");
    assertThat(lines.get(lines.size() - 1)).startsWith(file + " (jsonl): 2 transactions,");
  }

  @Test
  void withoutAllAtMostTenViolationsPerLevel() throws IOException {
    Path file = tmp.resolve("thin-air.jsonl");
    StringBuilder text = new StringBuilder();
    for (int i = 1; i <= 12; i++) {
      text.append("{\"session\":\"s\",\"txn\":").append(i)
          .append(",\"ops\":[{\"f\":\"r\",\"key\":\"x\",\"value\":").append(100 + i).append("}]}\n");
    }
    Files.writeString(file, text);
    CliRun limited = CliRun.of("check", "--level", "read-committed", file.toString());
    assertThat(limited.exitCode()).isEqualTo(ExitCode.VIOLATION);
    List<String> lines = limited.out().lines().toList();
    assertThat(lines.get(0)).isEqualTo("read-committed: VIOLATED (12 violations)");
    assertThat(lines.stream().filter(l -> l.startsWith("[read-committed] violation ")).count())
        .isEqualTo(10);
    assertThat(lines).contains(
        "  T1 read x = 101, which no transaction wrote",
        "... 2 more violations at read-committed not shown; --all shows them");
    CliRun all = CliRun.of("check", "--level", "read-committed", "--all", file.toString());
    assertThat(all.out().lines().filter(l -> l.startsWith("[read-committed] violation ")).count())
        .isEqualTo(12);
    assertThat(all.out()).doesNotContain("--all shows them");
    CliRun two = CliRun.of("check", "--level", "read-committed,read-atomic", file.toString());
    List<String> twoLines = two.out().lines().toList();
    assertThat(twoLines.stream().filter(l -> l.startsWith("[read-committed, read-atomic] violation ")).count())
        .isEqualTo(10);
    assertThat(twoLines).contains("[read-committed, read-atomic] violation 10 of 12: thin-air-read"
            + " (weakest level broken: read-committed)",
        "... 2 more violations at read-committed not shown; --all shows them",
        "... 2 more violations at read-atomic not shown; --all shows them");
  }

  @Test
  void malformedFileExitsTwoNamingFileAndLine() throws IOException {
    Path file = tmp.resolve("bad.jsonl");
    Files.writeString(file, "{\"session\":\"s\",\"ops\":[]}\n{\"session\":\"s\",\"ops\":[{\"f\":\"q\"}]}\n");
    CliRun run = CliRun.of("check", file.toString());
    assertThat(run.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
    assertThat(run.out()).isEmpty();
    assertThat(run.err()).startsWith("isowatch check: " + file + ":2: ");
  }

  @Test
  void missingFileExitsTwo() {
    Path file = tmp.resolve("absent.jsonl");
    CliRun run = CliRun.of("check", "--format", "jsonl", file.toString());
    assertThat(run.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
    assertThat(run.out()).isEmpty();
    assertThat(run.err()).isEqualTo(
        "isowatch check: " + file + ": no such file or directory; expected a history file\n");
  }

  @Test
  void unknownLevelIsAUsageError() {
    CliRun run = CliRun.of("check", "--level", "read-committed,linearizable",
        CliRun.sample("consistent.jsonl").toString());
    assertThat(run.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
    assertThat(run.out()).isEmpty();
    assertThat(run.err().lines().findFirst().orElseThrow()).isEqualTo(
        "--level: 'linearizable' is not one of read-uncommitted, read-committed, read-atomic, causal,"
            + " snapshot-isolation, serializable, all");
  }

  @Test
  void levelAllPrintsTheLadderWithBothReadCommittedVocabularies() throws Exception {
    Path file = Path.of(CheckCommandTest.class.getResource("/cli/write-skew.jsonl").toURI());
    CliRun run = CliRun.of("check", "--level", "all", file.toString());
    assertThat(run.exitCode()).isEqualTo(ExitCode.VIOLATION);
    assertThat(run.firstLines(8)).containsExactly(
        "read-uncommitted: CONSISTENT",
        "read-committed: CONSISTENT",
        "read-committed (Adya PL-2): CONSISTENT",
        "read-atomic: CONSISTENT",
        "causal: CONSISTENT",
        "snapshot-isolation: CONSISTENT",
        "serializable: VIOLATED (1 violation)",
        "ladder: strongest level satisfied: snapshot-isolation; weakest level broken: serializable");
    assertThat(run.out()).contains("[serializable] violation 1 of 1: G2-item (weakest level broken: serializable)\n"
        + "  cycle T2 -> T3 -> T2 (2 edges)\n");
  }

  @Test
  void noSessionOrderIsAcceptedForAdyaLevels() throws Exception {
    Path file = Path.of(CheckCommandTest.class.getResource("/cli/write-skew.jsonl").toURI());
    CliRun run = CliRun.of("check", "--no-session-order", "--level", "snapshot-isolation,serializable",
        file.toString());
    assertThat(run.exitCode()).isEqualTo(ExitCode.VIOLATION);
    assertThat(run.firstLines(2)).containsExactly(
        "snapshot-isolation: CONSISTENT", "serializable: VIOLATED (1 violation)");
  }

  /** A usage error prints its message, suggestions for a misspelt option, and where the help is: not the help. */
  @Test
  void unknownFormatAndOptionAreUsageErrors() {
    CliRun format = CliRun.of("check", "--format", "csv", "x");
    assertThat(format.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
    assertThat(format.err().lines().toList()).containsExactly(
        "--format: 'csv' is not one of jsonl, plume, awdit, edn, dbcop, cobra",
        "'isowatch check --help' lists the options.");
    CliRun option = CliRun.of("check", "--levle=causal", "x");
    assertThat(option.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
    assertThat(option.err().lines().toList()).containsExactly("Unknown option: '--levle=causal'",
        "Possible solutions: --level", "'isowatch check --help' lists the options.");
    CliRun none = CliRun.of();
    assertThat(none.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
    assertThat(none.err().lines().toList()).containsExactly(
        "Missing command: use check, monitor, replay, demo, museum, probe, capture or broker", "'isowatch --help' lists the options.");
  }

  /**
   * {@code isowatch check ...} goes through a root that knows only {@code check} ({@link
   * IsowatchCli.CheckOnly}); its help, usage errors, version and exit codes are those of the full
   * root.
   */
  @Test
  void theCheckOnlyRootAnswersAsTheFullRoot() {
    List<List<String>> lines = List.of(List.of("check", "--help"), List.of("check", "--version"),
        List.of("check", "--levle", "causal", "h.jsonl"), List.of("check", "--level", "linearizable", "h.jsonl"),
        List.of("check"), List.of("check", "a", "b"));
    for (List<String> args : lines) {
      String[] a = args.toArray(String[]::new);
      StringWriter fullOut = new StringWriter();
      StringWriter fullErr = new StringWriter();
      int full = IsowatchCli.commandLine(new PrintWriter(fullOut, true), new PrintWriter(fullErr, true)).execute(a);
      assertThat(IsowatchCli.commandLine(a, new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()))
          .getCommandSpec().userObject()).isInstanceOf(IsowatchCli.CheckOnly.class);
      CliRun only = CliRun.of(a);
      assertThat(only.exitCode()).as("%s", args).isEqualTo(full);
      assertThat(only.out()).as("%s", args).isEqualTo(fullOut.toString());
      assertThat(only.err()).as("%s", args).isEqualTo(fullErr.toString());
    }
  }

  /**
   * The lines of every command's help laid out by hand (the footers' examples and exit codes, the
   * descriptions' indented lists) are printed whole at picocli's 80 columns: none wraps to column 0.
   */
  @Test
  void everyHandLaidHelpLineIsPrintedWhole() {
    CommandLine root = IsowatchCli.commandLine(new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()));
    List<CommandLine> commands = new ArrayList<>(root.getSubcommands().values());
    commands.add(root);
    for (CommandLine command : commands) {
      UsageMessageSpec usage = command.getCommandSpec().usageMessage();
      assertThat(usage.width()).isEqualTo(80);
      List<String> laid = new ArrayList<>(List.of(usage.footer()));
      Stream.of(usage.description()).filter(line -> line.startsWith(" ")).forEach(laid::add);
      laid.removeIf(String::isEmpty);
      assertThat(command.getUsageMessage(CommandLine.Help.Ansi.OFF).lines().toList())
          .as(command.getCommandName()).containsAll(laid);
    }
  }

  @Test
  void progressOnlyWhenStandardErrorIsATerminalAndNotQuiet() {
    String before = System.getProperty(IsowatchCli.STDERR_TTY_PROPERTY);
    try {
      System.setProperty(IsowatchCli.STDERR_TTY_PROPERTY, "true");
      assertThat(List.of(IsowatchCli.progressAllowed(false), IsowatchCli.progressAllowed(true)))
          .containsExactly(true, false);
      System.setProperty(IsowatchCli.STDERR_TTY_PROPERTY, "false");
      assertThat(List.of(IsowatchCli.progressAllowed(false), IsowatchCli.progressAllowed(true)))
          .containsExactly(false, false);
    } finally {
      if (before == null) {
        System.clearProperty(IsowatchCli.STDERR_TTY_PROPERTY);
      } else {
        System.setProperty(IsowatchCli.STDERR_TTY_PROPERTY, before);
      }
    }
  }

  @Test
  void helpShowsExamplesAndExitCodes() {
    CliRun run = CliRun.of("check", "--help");
    assertThat(run.exitCode()).isEqualTo(ExitCode.CONSISTENT);
    assertThat(run.firstLines(2)).containsExactly(
        "Check a history file at isolation levels from read uncommitted to serializable.",
        "Usage: isowatch check [-hqV] [--all] [--json] [--no-session-order] [--dot=FILE]");
    assertThat(run.out()).contains(
        "  isowatch check --level causal ../shared/histories/real/dgraph-causal.plume.txt",
        "  isowatch check --report report.html --dot report.dot h.edn",
        "Exit codes: 0 consistent at every level, 1 violation found,\n"
            + "            2 bad input or usage, 3 internal error,\n"
            + "            4 no violation found but some verdict unknown.\n");
  }
}
