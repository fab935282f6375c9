package io.isowatch.checker.window;

import io.isowatch.checker.LevelPlan;
import java.util.EnumSet;
import java.util.Set;

/**
 * A family of the window's checks that can run apart from the others, in a {@link WindowChecker}
 * of its own ({@link WindowConfig#families()}), so that the streaming monitor can spread one
 * history's checking over several tasks. Every family's checker keeps the same window (the same
 * transactions, feed positions and generations) and reports the thin-air reads the window
 * establishes; only the checks its generations run differ.
 *
 * <p>The three axiomatic checks stay in one family: one cycle is often found by the causal check
 * (which names causal consistency) before or with the read-committed check (which names read
 * committed), and the {@link Reporter} publishes only the weaker claim when both come in one call;
 * apart, both would be published.
 */
public enum CheckFamily {
  /** Read committed, read atomic and causal consistency: AWDIT's incremental checks. */
  AXIOMATIC("axiomatic"),
  /** Adya's phenomena (list-append histories) and the polygraph checks (register-only histories). */
  ADYA_POLYGRAPH("adya-polygraph");

  private final String id;

  CheckFamily(String id) {
    this.id = id;
  }

  /** @return the family's short name, used in store, topic and node names ({@code axiomatic}, {@code adya-polygraph}) */
  public String id() {
    return id;
  }

  /** @return whether this family runs {@code check} */
  public boolean runs(LevelPlan.Check check) {
    return (check.model() == LevelPlan.Model.AXIOMATIC) == (this == AXIOMATIC);
  }

  /** @return every family: a checker running them all is the whole window check */
  public static Set<CheckFamily> all() {
    return EnumSet.allOf(CheckFamily.class);
  }
}
