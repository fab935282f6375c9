package io.isowatch.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The smallest histories found on which a peer's code and Biswas &amp; Enea's definitions (OOPSLA
 * 2019, §3) disagree, with isowatch's exact verdicts, which follow the definitions ({@code
 * docs/levels.md}, "Where the peers' definitions differ"). Plume's answers are read off its code
 * (Plume, OOPSLA 2024, {@code alg/Plume.java}); AWDIT's were run (PLDI 2025, built by {@code
 * ../shared/anchors/build-awdit.sh}).
 */
class PeerDefinitionsTest {
  @TempDir Path tmp;

  /**
   * T3 saw T2 (read y), then read x from T1, which T2 overwrote: T2 before T1 in every commit order;
   * session order puts T1 before T2. Not read committed. Plume's read committed stops after its
   * commit-order pass, which checks the read committed triangle only for reads of the initial value:
   * it accepts the history.
   */
  @Test
  void plumeReadCommittedChecksTheAxiomOnlyForInitialReads() throws IOException {
    Path file = write("plume-rc.plume.txt", "w(1,1,1,1)\nw(1,2,1,2)\nw(2,2,1,2)\nr(2,2,2,3)\nr(1,1,2,3)\n");
    CliRun run = CliRun.of("check", "--level", "all", file.toString());
    assertThat(run.exitCode()).isEqualTo(ExitCode.VIOLATION);
    String rc = "VIOLATED because read-committed is: cycle T1 -> T2 -> T1 (2 edges, 1 inferred commit order)";
    assertThat(run.firstLines(9)).containsExactly(
        "read-uncommitted: CONSISTENT",
        "read-committed: VIOLATED (1 violation)",
        "read-atomic: VIOLATED (1 violation)",
        "causal: VIOLATED (1 violation)",
        "snapshot-isolation: " + rc,
        "snapshot-isolation (polygraph): VIOLATED (1 violation)",
        "serializable: " + rc,
        "serializable (polygraph): VIOLATED (1 violation)",
        "ladder: strongest level satisfied: read-uncommitted; weakest level broken: read-committed");
  }

  /**
   * T1 reaches T5 only through T6 (two wr steps) and writes w, which T5 read from T2: causal puts T1
   * before T2; T3 saw T2 (read y) and read x from T1: read atomic puts T2 before T1. Causal fails;
   * read atomic's premise is one so ∪ wr step, so read atomic (and read committed) hold, as AWDIT
   * answers. Plume's read atomic builds its anti-order edges from causal reachability and reports a
   * non-monotonic read (NonMonoReadAO) here: it calls a causal violation a read atomic one.
   */
  @Test
  void plumeReadAtomicUsesCausalReachability() throws IOException {
    Path file = write("plume-ra.plume.txt", "w(1,1,1,1)\nw(3,1,1,1)\nw(4,1,1,1)\nr(4,1,2,6)\nw(5,6,2,6)\n"
        + "r(5,6,3,5)\nr(3,2,3,5)\nw(1,2,4,2)\nw(2,2,4,2)\nw(3,2,4,2)\nr(2,2,5,3)\nr(1,1,5,3)\n");
    CliRun run = CliRun.of("check", "--level", "all", file.toString());
    assertThat(run.exitCode()).isEqualTo(ExitCode.VIOLATION);
    String cc = "VIOLATED because causal is: cycle T1 -> T2 -> T1 (2 edges, 2 inferred commit orders)";
    assertThat(run.firstLines(9)).containsExactly(
        "read-uncommitted: CONSISTENT",
        "read-committed: CONSISTENT",
        "read-atomic: CONSISTENT",
        "causal: VIOLATED (1 violation)",
        "snapshot-isolation: " + cc,
        "snapshot-isolation (polygraph): VIOLATED (1 violation)",
        "serializable: " + cc,
        "serializable (polygraph): VIOLATED (1 violation)",
        "ladder: strongest level satisfied: read-atomic; weakest level broken: causal");
  }

  /**
   * As {@link #plumeReadCommittedChecksTheAxiomOnlyForInitialReads}, with two reads of x from T2
   * between T3's read of y and its read of x from T1. AWDIT's read committed keeps, per key, the two
   * earliest later reads; both are T2's, so the read from T1 is never paired with T2 and AWDIT
   * answers "Consistent." (with one read of x from T2 between, "Inconsistent."). Not read committed.
   */
  @Test
  void awditReadCommittedMissesTheCaseWhereBothSlotsHoldTheSameWriter() throws IOException {
    Path file = write("awdit-two-slot.plume.txt",
        "w(1,1,1,1)\nw(1,2,1,2)\nw(2,2,1,2)\nr(2,2,2,3)\nr(1,2,2,3)\nr(1,2,2,3)\nr(1,1,2,3)\n");
    CliRun run = CliRun.of("check", "--level", "all", file.toString());
    assertThat(run.exitCode()).isEqualTo(ExitCode.VIOLATION);
    String rc = "VIOLATED because read-committed is: cycle T1 -> T2 -> T1 (2 edges, 1 inferred commit order)";
    assertThat(run.firstLines(9)).containsExactly(
        "read-uncommitted: CONSISTENT",
        "read-committed: VIOLATED (1 violation)",
        "read-atomic: VIOLATED (2 violations)",
        "causal: VIOLATED (2 violations)",
        "snapshot-isolation: VIOLATED (1 violation)",
        "snapshot-isolation (polygraph): " + rc,
        "serializable: VIOLATED (1 violation)",
        "serializable (polygraph): " + rc,
        "ladder: strongest level satisfied: read-uncommitted; weakest level broken: read-committed");
  }

  private Path write(String name, String text) throws IOException {
    Path file = tmp.resolve(name);
    Files.writeString(file, text);
    return file;
  }
}
