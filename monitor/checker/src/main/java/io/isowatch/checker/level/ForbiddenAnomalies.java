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
    // Sources, cited per row: Adya, "Weak Consistency", MIT PhD thesis 1999 (PL-1 §4.1, PL-2
    // §4.2, PL-SI §4.3, PL-3 §4.4); Biswas & Enea, "On the Complexity of Checking Transactional
    // Consistency", OOPSLA 2019 (§2 histories, §3 axioms; read committed is their weakest level);
    // Cerone, Bernardi & Gotsman, "A Framework for Transactional Consistency Models with Atomic
    // Visibility", CONCUR 2015 (INT, EXT; read atomic is their weakest model); Elle's
    // consistency_model.clj (direct-proscribed-anomalies, implied-anomalies). docs/levels.md has the
    // same table with one example history each (ForbiddenAnomaliesTest).

    // Biswas & Enea §2: every read reads from some write (wr is total on reads), at every level;
    // Adya's reads observe installed versions only. Weakest axiomatic level: read committed.
    WEAKEST_FORBIDDING.put(Anomaly.THIN_AIR_READ, Level.READ_COMMITTED);
    // Adya §4.2: PL-2 forbids G1a; Elle: :G1a proscribed by PL-2 (via :G1).
    WEAKEST_FORBIDDING.put(Anomaly.ABORTED_READ, Level.READ_COMMITTED);
    // Elle: :future-read implies :G1c (a trivial wr cycle), which PL-2 forbids; Biswas & Enea §2:
    // a read after its own write returns that write, so a read of a later own write is no history.
    WEAKEST_FORBIDDING.put(Anomaly.FUTURE_READ, Level.READ_COMMITTED);
    // Biswas & Enea §2: a read preceded by its transaction's write of the key returns the last such
    // write, at every level (their weakest is read committed); AWDIT §2 checks it with the basic
    // axioms. Adya assumes it of every history (§3.1) rather than naming a phenomenon; Elle puts
    // :internal at read atomic (Cerone's INT). isowatch follows Biswas & Enea: read committed.
    WEAKEST_FORBIDDING.put(Anomaly.NOT_MY_OWN_WRITE, Level.READ_COMMITTED);
    WEAKEST_FORBIDDING.put(Anomaly.NOT_MY_LAST_WRITE, Level.READ_COMMITTED);
    WEAKEST_FORBIDDING.put(Anomaly.INTERNAL, Level.READ_COMMITTED);
    // Adya §4.2: PL-2 forbids G1b; Elle: :G1b proscribed by PL-2 (via :G1).
    WEAKEST_FORBIDDING.put(Anomaly.INTERMEDIATE_READ, Level.READ_COMMITTED);
    // Read committed allows it: Adya §4.2 (PL-2 proscribes G1 only; P2 is allowed, as in
    // Berenson et al., SIGMOD 1995) and Biswas & Enea §3 (the read committed axiom constrains only
    // reads after a read of the writer). Read atomic forbids it: Biswas & Enea §3 (two reads of x
    // from different writers force a commit-order cycle), Cerone et al. §3 (INT), Elle (:internal
    // proscribed by :read-atomic).
    WEAKEST_FORBIDDING.put(Anomaly.NON_REPEATABLE_READ, Level.READ_ATOMIC);
    // AWDIT §3: a cycle under the read committed saturation breaks read committed; each
    // violation's own level is the strongest axiom among its edges (Because#level).
    WEAKEST_FORBIDDING.put(Anomaly.COMMIT_ORDER_CYCLE, Level.READ_COMMITTED);
    // Adya §4.1: PL-1 forbids G0; Elle: :G0 proscribed by PL-1.
    WEAKEST_FORBIDDING.put(Anomaly.G0, Level.READ_UNCOMMITTED);
    // Adya §4.2: PL-2 forbids G1c; Elle: :G1c proscribed by PL-2 (via :G1).
    WEAKEST_FORBIDDING.put(Anomaly.G1C, Level.READ_COMMITTED);
    // Adya §4.3: PL-SI forbids G-single (also PL-2+, consistent view); Elle: :G-single implies
    // :G-nonadjacent, proscribed by snapshot isolation.
    WEAKEST_FORBIDDING.put(Anomaly.G_SINGLE, Level.SNAPSHOT_ISOLATION);
    // Cerone & Gotsman, PODC 2016: SI's dependency graphs are those in which every cycle has two
    // adjacent anti-dependencies, so a cycle whose rw edges are pairwise non-adjacent (the long
    // fork among them; Elle calls it G-nonadjacent) breaks SI, though parallel SI allows it.
    WEAKEST_FORBIDDING.put(Anomaly.G_NONADJACENT, Level.SNAPSHOT_ISOLATION);
    // Berenson et al., SIGMOD 1995 (P4), prevented by first-committer-wins under SI; Elle:
    // :lost-update proscribed by cursor stability, which snapshot isolation implies (via forward
    // consistent view and consistent view, Adya); read atomic and causal allow it (Cerone et al.
    // §4: no write-conflict axiom below SI).
    WEAKEST_FORBIDDING.put(Anomaly.LOST_UPDATE, Level.SNAPSHOT_ISOLATION);
    // Adya §4.4: PL-3 (serializable) forbids G2-item; SI allows write skew.
    WEAKEST_FORBIDDING.put(Anomaly.G2_ITEM, Level.SERIALIZABLE);
    // Elle (implied-anomalies): :incompatible-order implies :G1a ("two committed read versions
    // couldn't have come from the same timeline"), proscribed from PL-2 up.
    WEAKEST_FORBIDDING.put(Anomaly.INCOMPATIBLE_ORDER, Level.READ_COMMITTED);
    // Elle: :duplicate-elements proscribed by PL-1 (a version order is a sequence of installs).
    WEAKEST_FORBIDDING.put(Anomaly.DUPLICATE_ELEMENTS, Level.READ_UNCOMMITTED);
    // Elle (implied-anomalies): :dirty-update implies :G1a, proscribed from PL-2 up.
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
