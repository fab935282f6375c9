package io.isowatch.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The examples of issue 16 that the one verdict per level settles: every line, the ladder, the
 * exit code, {@code --json} and the HTML report read one monotone verdict per level ({@link
 * io.isowatch.checker.LevelVerdicts}).
 */
class LadderVerdictsTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  @TempDir Path tmp;

  /** Read committed allows a non-repeatable read (Adya PL-2; Biswas &amp; Enea); read atomic does not. */
  @Test
  void aPlainNonRepeatableReadOnRegistersBreaksReadAtomicAndUp() throws IOException {
    Path file = write("nrr.plume.txt", "w(1,1,0,1)\nr(1,0,1,2)\nr(1,0,1,2)\nr(1,1,1,2)\n");
    CliRun run = CliRun.of("check", "--level", "all", file.toString());
    assertThat(run.exitCode()).isEqualTo(ExitCode.VIOLATION);
    String nrr = "VIOLATED because read-atomic is: T2 read key 1 twice with different results: key 1 = init"
        + " from T_init, then key 1 = 1 from T1";
    assertThat(run.firstLines(11)).containsExactly(
        "read-uncommitted: CONSISTENT",
        "read-committed: CONSISTENT",
        "read-atomic: VIOLATED (2 violations)",
        "causal: VIOLATED (2 violations)",
        "snapshot-isolation: VIOLATED (2 violations)",
        "snapshot-isolation (polygraph): " + nrr,
        "serializable: VIOLATED (2 violations)",
        "serializable (polygraph): " + nrr,
        "ladder: strongest level satisfied: read-committed; weakest level broken: read-atomic",
        "",
        "[read-atomic, causal] violation 1 of 4: non-repeatable-read (weakest level broken: read-atomic)");
    assertThat(run.out()).contains(
        "  T2 read key 1 twice with different results: key 1 = init from T_init, then key 1 = 1 from T1\n",
        "  so: T_init, the initial state, precedes T1 as it precedes every transaction\n");
    assertThat(run.out()).doesNotContain("internal", "in session 0\n");
  }

  /** Snapshot isolation and serializable forbid everything causal forbids: violated, not unknown. */
  @Test
  void aRegisterHistoryWhoseCausalCheckFailsViolatesSnapshotIsolationAndSerializable() throws IOException {
    Path file = write("causal.plume.txt",
        "w(1,1,0,1)\nw(1,2,0,2)\nr(1,2,1,3)\nw(2,3,1,3)\nr(2,3,2,4)\nr(1,1,2,4)\n");
    CliRun run = CliRun.of("check", "--level", "all", file.toString());
    assertThat(run.exitCode()).isEqualTo(ExitCode.VIOLATION);
    assertThat(run.firstLines(9)).containsExactly(
        "read-uncommitted: CONSISTENT",
        "read-committed: CONSISTENT",
        "read-atomic: CONSISTENT",
        "causal: VIOLATED (1 violation)",
        "snapshot-isolation: VIOLATED because causal is: cycle T1 -> T2 -> T1 (2 edges, 1 inferred commit order)",
        "snapshot-isolation (polygraph): VIOLATED (1 violation)",
        "serializable: VIOLATED because causal is: cycle T1 -> T2 -> T1 (2 edges, 1 inferred commit order)",
        "serializable (polygraph): VIOLATED (1 violation)",
        "ladder: strongest level satisfied: read-atomic; weakest level broken: causal");
    // the polygraph shows it too, by the two orders of T1's and T2's writes of key 1
    assertThat(run.out()).contains("[snapshot-isolation (polygraph), serializable (polygraph)] violation 2 of 2:"
        + " G-single (weakest level broken: snapshot-isolation)\n"
        + "  no order of the writes of T1 and T2 avoids a cycle (2 cases)\n");
    // the weaker levels' checks run unreported: causal's violation still decides snapshot isolation
    CliRun only = CliRun.of("check", "--level", "snapshot-isolation", file.toString());
    assertThat(only.exitCode()).isEqualTo(ExitCode.VIOLATION);
    assertThat(only.firstLines(3)).containsExactly("snapshot-isolation: VIOLATED because causal is: cycle"
        + " T1 -> T2 -> T1 (2 edges, 1 inferred commit order)", "snapshot-isolation (polygraph): VIOLATED (1 violation)",
        "");
    assertThat(only.out()).doesNotContain("[causal]");
  }

  /** An aborted read breaks every level above read uncommitted, whichever vocabulary finds it. */
  @Test
  void anAbortedReadInAListBreaksEveryLevelAboveReadUncommitted() throws IOException {
    Path file = write("g1a.edn", "{:type :ok, :process 0, :value [[:append 1 1]]}\n"
        + "{:type :fail, :process 1, :value [[:append 1 2]]}\n"
        + "{:type :ok, :process 2, :value [[:append 1 3] [:r 1 [1 2 3]]]}\n");
    Path html = tmp.resolve("g1a.html");
    CliRun run = CliRun.of("check", "--level", "all", "--report", html.toString(), file.toString());
    assertThat(run.exitCode()).isEqualTo(ExitCode.VIOLATION);
    String g1a = "T3 read key 1 = [1, 2, 3] from T2, which aborted";
    // the axiomatic checks read the list element by element and find the aborted 2 themselves
    assertThat(run.firstLines(8)).containsExactly(
        "read-uncommitted: CONSISTENT",
        "read-committed: VIOLATED (1 violation)",
        "read-committed (Adya PL-2): VIOLATED (2 violations)",
        "read-atomic: VIOLATED (1 violation)",
        "causal: VIOLATED (1 violation)",
        "snapshot-isolation: VIOLATED (2 violations)",
        "serializable: VIOLATED (2 violations)",
        "ladder: strongest level satisfied: read-uncommitted; weakest level broken: read-committed");
    CliRun causalOnly = CliRun.of("check", "--level", "causal", file.toString());
    assertThat(causalOnly.exitCode()).isEqualTo(ExitCode.VIOLATION);
    assertThat(causalOnly.firstLines(1)).containsExactly("causal: VIOLATED (1 violation)");
    assertThat(causalOnly.out()).contains("  " + g1a + "\n");
    assertThat(Files.readString(html)).contains("causal: VIOLATED (1 violation)",
        "ladder: strongest level satisfied: read-uncommitted;");

    JsonNode root = MAPPER.readTree(CliRun.of("check", "--level", "all", "--json", file.toString()).out());
    JsonNode causal = root.get("levels").get(4);
    assertThat(causal.get("level").asText()).isEqualTo("causal");
    assertThat(causal.get("verdict").asText()).isEqualTo("VIOLATED");
    assertThat(causal.get("consistent").asBoolean()).isFalse();
    assertThat(causal.get("because")).isNull();
    assertThat(causal.get("violations").size()).isEqualTo(1);
    assertThat(causal.get("violations").get(0).get("kind").asText()).isEqualTo("G1a");
    assertThat(causal.get("violations").get(0).get("explanation").asText()).isEqualTo(g1a);
    assertThat(root.get("ladder")).isEqualTo(MAPPER.readTree(
        "{\"strongestSatisfied\":\"read-uncommitted\",\"weakestBroken\":\"read-committed\"}"));
  }

  /**
   * The two readings of read committed may differ (docs/levels.md): the axiomatic one fails, PL-2
   * passes. The level is violated; PL-2's own line stays consistent, as detail.
   */
  @Test
  void adyaPl2KeepsItsOwnVerdictBesideAViolatedAxiomaticReadCommitted() throws IOException {
    Path file = write("rc.jsonl",
        "{\"session\":\"s1\",\"txn\":1,\"ops\":[{\"f\":\"append\",\"key\":\"x\",\"value\":1},"
            + "{\"f\":\"append\",\"key\":\"z\",\"value\":1}]}\n"
            + "{\"session\":\"s2\",\"txn\":2,\"ops\":[{\"f\":\"append\",\"key\":\"x\",\"value\":2},"
            + "{\"f\":\"append\",\"key\":\"y\",\"value\":1}]}\n"
            + "{\"session\":\"s3\",\"txn\":3,\"ops\":[{\"f\":\"r\",\"key\":\"y\",\"value\":[1]},"
            + "{\"f\":\"r\",\"key\":\"x\",\"value\":[1]}]}\n"
            + "{\"session\":\"s4\",\"txn\":4,\"ops\":[{\"f\":\"r\",\"key\":\"z\",\"value\":[1]},"
            + "{\"f\":\"r\",\"key\":\"x\",\"value\":[1,2]}]}\n");
    CliRun run = CliRun.of("check", "--level", "read-committed", file.toString());
    assertThat(run.exitCode()).isEqualTo(ExitCode.VIOLATION);
    assertThat(run.firstLines(5)).containsExactly(
        "read-committed: VIOLATED (1 violation)",
        "read-committed (Adya PL-2): CONSISTENT",
        "",
        "[read-committed] violation 1 of 1: commit-order-cycle (weakest level broken: read-committed)",
        "  cycle T1 -> T2 -> T1 (2 edges, 1 inferred commit order)");
  }

  /** The sentence says whether the earlier operation was a read or a write; an empty list is the initial state. */
  @Test
  void internalAndNonRepeatableReadsNameTheEarlierOperation() throws IOException {
    Path file = write("own.edn", "{:type :ok, :process 0, :value [[:append 1 1] [:r 1 []]]}\n"
        + "{:type :ok, :process 1, :value [[:r 2 []] [:append 2 5] [:r 2 [5]] [:r 2 [5 6]]]}\n"
        + "{:type :ok, :process 2, :value [[:append 2 6]]}\n");
    CliRun run = CliRun.of("check", "--level", "all", file.toString());
    assertThat(run.out().lines().filter(l -> l.matches("  T\\d read .*"))).containsExactly(
        "  T1 read key 1 = [], the initial state, after its own append(1,1)",
        "  T2 read key 2 = [5, 6] from T3 after its own append(2,5)",
        "  T1 read key 1 = [], which disagrees with its own earlier write append(1,1)",
        "  T2 read key 2 twice with different results: key 2 = [5], then key 2 = [5, 6]");
    Path registers = write("own.plume.txt", "w(1,1,0,1)\nw(1,2,1,2)\nr(1,1,1,2)\n");
    assertThat(CliRun.of("check", "--level", "all", registers.toString()).out())
        .contains("  T2 read key 1 = 1, which disagrees with its own earlier write w(1)=2\n");
  }

  /**
   * A G0 write cycle on one key: two reads order two appends both ways. No version order of the key
   * exists, so Adya's graph (built from the longest read) shows an incompatible order rather than a
   * G0, which the anomaly table puts at read committed (Elle: implies G1a); the axioms see the cycle
   * of version order ({@code docs/levels.md}, list reads element by element). Read uncommitted holds;
   * every stronger level is violated.
   */
  @Test
  void aG0WriteCycleOnOneKeyBreaksReadCommittedAndUp() throws IOException {
    Path file = write("g0.edn", "{:type :ok, :process 0, :value [[:append 1 1]]}\n"
        + "{:type :ok, :process 1, :value [[:append 1 2]]}\n"
        + "{:type :ok, :process 2, :value [[:r 1 [1 2]]]}\n"
        + "{:type :ok, :process 3, :value [[:r 1 [2 1]]]}\n");
    CliRun run = CliRun.of("check", "--level", "all", file.toString());
    assertThat(run.exitCode()).isEqualTo(ExitCode.VIOLATION);
    assertThat(run.firstLines(12)).containsExactly(
        "read-uncommitted: CONSISTENT",
        "read-committed: VIOLATED (1 violation)",
        "read-committed (Adya PL-2): VIOLATED (1 violation)",
        "read-atomic: VIOLATED (1 violation)",
        "causal: VIOLATED (1 violation)",
        "snapshot-isolation: VIOLATED (1 violation)",
        "serializable: VIOLATED (1 violation)",
        "ladder: strongest level satisfied: read-uncommitted; weakest level broken: read-committed",
        "",
        "[read-committed, read-atomic, causal] violation 1 of 2: commit-order-cycle (weakest level broken:"
            + " read-committed)",
        "  cycle T1 -> T2 -> T1 (2 edges)",
        "  T1 (session 0): append(1,1)");
    assertThat(run.out()).contains("[read-committed (Adya PL-2), snapshot-isolation, serializable] violation 2 of 2:"
        + " incompatible-order (weakest level broken: read-committed)\n"
        + "  T4 read key 1 = [2, 1] and T3 read key 1 = [1, 2]; neither is a prefix of the other\n");
  }

  /**
   * A Plume file whose first transaction (session 0, transaction 0) writes 0 to every key, as
   * IsoVista and PolySI write them: that transaction is the initial state, and the verdicts are those
   * of the same history without it ({@link #aRegisterHistoryWhoseCausalCheckFailsViolatesSnapshotIsolationAndSerializable}).
   */
  @Test
  void anExplicitInitialTransactionIsTheInitialState() throws IOException {
    Path file = write("init.plume.txt", "w(1,0,0,0)\nw(2,0,0,0)\n"
        + "w(1,1,1,1)\nw(1,2,1,2)\nr(1,2,2,3)\nw(2,3,2,3)\nr(2,3,3,4)\nr(1,1,3,4)\n");
    CliRun run = CliRun.of("check", "--level", "all", file.toString());
    assertThat(run.exitCode()).isEqualTo(ExitCode.VIOLATION);
    String causal = "VIOLATED because causal is: cycle T1 -> T2 -> T1 (2 edges, 1 inferred commit order)";
    assertThat(run.firstLines(9)).containsExactly(
        "read-uncommitted: CONSISTENT",
        "read-committed: CONSISTENT",
        "read-atomic: CONSISTENT",
        "causal: VIOLATED (1 violation)",
        "snapshot-isolation: " + causal,
        "snapshot-isolation (polygraph): VIOLATED (1 violation)",
        "serializable: " + causal,
        "serializable (polygraph): VIOLATED (1 violation)",
        "ladder: strongest level satisfied: read-atomic; weakest level broken: causal");
    assertThat(run.out()).contains("4 transactions, 6 operations, 3 sessions, 2 keys");
  }

  private Path write(String name, String text) throws IOException {
    Path file = tmp.resolve(name);
    Files.writeString(file, text);
    return file;
  }
}
