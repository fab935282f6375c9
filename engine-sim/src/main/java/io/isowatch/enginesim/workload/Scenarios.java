package io.isowatch.enginesim.workload;

import static io.isowatch.enginesim.workload.ProgramOp.read;
import static io.isowatch.enginesim.workload.ProgramOp.write;

import java.util.List;

/**
 * Named textbook scenarios as rw-register programs (per session, its transactions, each its
 * operations; the shape {@link io.isowatch.enginesim.run.Simulation} runs). Whether the anomaly
 * shows depends on the engine and on the interleaving the schedule seed picks; the names follow
 * Berenson et al., "A Critique of ANSI SQL Isolation Levels", SIGMOD 1995 (§3, §4.2) and, for the
 * long fork, Cerone, Bernardi &amp; Gotsman, CONCUR 2015, §4.
 */
public final class Scenarios {
  private Scenarios() {}

  /**
   * Write skew (A5B): two sessions each read {@code x} and {@code y}, then write the key the other
   * one does not: {@code s0: r x, r y, w x 1}; {@code s1: r x, r y, w y 1}. Snapshot isolation
   * commits both when they overlap (G2-item); serializable aborts one.
   */
  public static List<List<List<ProgramOp>>> writeSkew() {
    return List.of(
        List.of(List.of(read("x"), read("y"), write("x", 1))),
        List.of(List.of(read("x"), read("y"), write("y", 1))));
  }

  /**
   * Read skew (A5A): {@code s0} reads {@code x} then {@code y}; {@code s1} writes both in one
   * transaction. At read committed, {@code s0} can see the old {@code x} and the new {@code y}: a
   * fractured read (G-single under Adya).
   */
  public static List<List<List<ProgramOp>>> readSkew() {
    return List.of(
        List.of(List.of(read("x"), read("y"))),
        List.of(List.of(write("x", 1), write("y", 1))));
  }

  /**
   * Lost update (P4): two sessions read {@code x} and then write it. An engine that lets both commit
   * after both read the initial value lost one update (forbidden from snapshot isolation up).
   */
  public static List<List<List<ProgramOp>>> lostUpdate() {
    return List.of(
        List.of(List.of(read("x"), write("x", 1))),
        List.of(List.of(read("x"), write("x", 2))));
  }

  /**
   * Long fork: {@code s0} writes {@code x}, {@code s1} writes {@code y}, and two readers read both
   * keys; if one reader sees only {@code x}'s write and the other only {@code y}'s, the two writes
   * were observed in opposite orders (G-nonadjacent; allowed by causal consistency, forbidden by
   * snapshot isolation; Cerone et al. 2015, §4).
   */
  public static List<List<List<ProgramOp>>> longFork() {
    return List.of(
        List.of(List.of(write("x", 1))),
        List.of(List.of(write("y", 1))),
        List.of(List.of(read("x"), read("y"))),
        List.of(List.of(read("y"), read("x"))));
  }
}
