package io.isowatch.checker.level;

import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * The one table of what each level forbids: for every anomaly, the weakest level that forbids it.
 * A level forbids everything the levels below it forbid (the ladder RU ⊂ RC ⊂ RA ⊂ CC ⊂ SI ⊂ SER).
 * "Weakest level broken" by a violation is read from here, never from if-chains.
 */
public final class ForbiddenAnomalies {
  private static final Map<Anomaly, Level> WEAKEST_FORBIDDING = new EnumMap<>(Anomaly.class);

  static {
    // Basic axioms hold at every level of the axiomatic framework (Biswas & Enea 2019, §3);
    // read committed is the weakest level of it; thin-air and own-write reads are also
    // excluded by Adya's PL-2 through G1a/G1b/internal consistency.
    WEAKEST_FORBIDDING.put(Anomaly.THIN_AIR_READ, Level.READ_COMMITTED);
    // Adya 1999, §4.2: PL-2 forbids G1a.
    WEAKEST_FORBIDDING.put(Anomaly.ABORTED_READ, Level.READ_COMMITTED);
    WEAKEST_FORBIDDING.put(Anomaly.FUTURE_READ, Level.READ_COMMITTED);
    WEAKEST_FORBIDDING.put(Anomaly.NOT_MY_OWN_WRITE, Level.READ_COMMITTED);
    WEAKEST_FORBIDDING.put(Anomaly.NOT_MY_LAST_WRITE, Level.READ_COMMITTED);
    // Adya 1999, §4.2: PL-2 forbids G1b.
    WEAKEST_FORBIDDING.put(Anomaly.INTERMEDIATE_READ, Level.READ_COMMITTED);
    // Read atomic forbids fractured reads (Bailis et al., SIGMOD 2014; Biswas & Enea 2019, §3).
    WEAKEST_FORBIDDING.put(Anomaly.NON_REPEATABLE_READ, Level.READ_ATOMIC);
    // A commit-order cycle under the RC saturation already breaks read committed (AWDIT §3);
    // each violation's own level comes from the edges of its witness.
    WEAKEST_FORBIDDING.put(Anomaly.COMMIT_ORDER_CYCLE, Level.READ_COMMITTED);
    // Adya 1999, §4.1: PL-1 forbids G0.
    WEAKEST_FORBIDDING.put(Anomaly.G0, Level.READ_UNCOMMITTED);
    // Adya 1999, §4.2: PL-2 forbids G1c.
    WEAKEST_FORBIDDING.put(Anomaly.G1C, Level.READ_COMMITTED);
    // Adya 1999, §4.3 (PL-SI forbids G-single; Elle §4.2 reads it as read skew).
    WEAKEST_FORBIDDING.put(Anomaly.G_SINGLE, Level.SNAPSHOT_ISOLATION);
    // Cerone & Gotsman, PODC 2016: SI's dependency graphs are those in which every cycle has two
    // adjacent anti-dependencies, so a cycle whose rw edges are pairwise non-adjacent (the long
    // fork among them; Elle calls it G-nonadjacent) breaks SI, though parallel SI allows it.
    WEAKEST_FORBIDDING.put(Anomaly.G_NONADJACENT, Level.SNAPSHOT_ISOLATION);
    // Berenson et al., SIGMOD 1995 (P4); first-committer-wins under SI prevents it.
    WEAKEST_FORBIDDING.put(Anomaly.LOST_UPDATE, Level.SNAPSHOT_ISOLATION);
    // Adya 1999, §4.4: PL-3 (serializable) forbids G2-item; SI allows write skew.
    WEAKEST_FORBIDDING.put(Anomaly.G2_ITEM, Level.SERIALIZABLE);
    // Elle §4.1: no database at any level may return incompatible list versions, duplicates,
    // or reads that contradict the transaction's own writes; Elle reports these at RU.
    WEAKEST_FORBIDDING.put(Anomaly.INCOMPATIBLE_ORDER, Level.READ_UNCOMMITTED);
    WEAKEST_FORBIDDING.put(Anomaly.DUPLICATE_ELEMENTS, Level.READ_UNCOMMITTED);
    WEAKEST_FORBIDDING.put(Anomaly.INTERNAL, Level.READ_UNCOMMITTED);
    // Elle §4.1: a committed write over an aborted version is G1a in disguise.
    WEAKEST_FORBIDDING.put(Anomaly.DIRTY_UPDATE, Level.READ_COMMITTED);
  }

  private ForbiddenAnomalies() {}

  /**
   * @param anomaly any anomaly
   * @return the weakest level on the ladder that forbids it
   */
  public static Level weakestForbidding(Anomaly anomaly) {
    return WEAKEST_FORBIDDING.get(anomaly);
  }

  /**
   * @param level a level
   * @return every anomaly the level forbids (those of the weaker levels included); unmodifiable
   */
  public static Set<Anomaly> forbiddenAt(Level level) {
    EnumSet<Anomaly> out = EnumSet.noneOf(Anomaly.class);
    WEAKEST_FORBIDDING.forEach((a, l) -> {
      if (level.atLeast(l)) {
        out.add(a);
      }
    });
    return Collections.unmodifiableSet(out);
  }

  /** @return whether {@code level} forbids {@code anomaly} */
  public static boolean forbids(Level level, Anomaly anomaly) {
    return level.atLeast(WEAKEST_FORBIDDING.get(anomaly));
  }
}
