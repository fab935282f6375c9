package io.isowatch.enginesim.ladder;

import io.isowatch.checker.level.Anomaly;
import java.util.List;
import java.util.Locale;

/**
 * The ladder as a table, what {@code isowatch museum} prints: one line per rung with its engine and
 * workload (the register rungs repeat SI and SER on rw-register), whether it was sound over the
 * schedules, the first anomaly of the next rung it admitted (with the seed to reproduce it and the
 * number of schedules showing one), and its commit rate.
 */
public final class Museum {
  private Museum() {}

  /**
   * @param results the rungs, from {@link LadderRun#run}
   * @return a header line and one line per rung, each ending in the platform's line separator; e.g.
   *     {@code SI mvcc list-append sound over 150 schedules admits G2-item at seed 0 (123 of 150)
   *     52.6% (1894 of 3600)} (padded into columns)
   */
  public static String render(List<RungResult> results) {
    StringBuilder sb = new StringBuilder();
    sb.append(String.format(Locale.ROOT, "%-4s %-11s %-12s %-29s %-70s %s%n",
        "rung", "engine", "workload", "soundness", "weakness (the next rung forbids)", "commit rate"));
    for (RungResult r : results) {
      String sound = r.sound()
          ? "sound over " + r.schedules() + " schedules"
          : "UNSOUND: " + r.firstUnsound() + " at seed " + r.firstUnsoundSeed() + " (" + r.unsoundSchedules()
              + " of " + r.schedules() + ")";
      String weak;
      if (r.rung().next() == null) {
        weak = "admits nothing (top of the ladder)";
      } else if (r.admitted() == null) {
        weak = "admits nothing of " + r.rung().next().cliName() + " seen";
      } else {
        weak = "admits " + r.admitted() + gloss(r) + " at seed " + r.admittedSeed() + " (" + r.admittedSchedules() + " of "
            + r.schedules() + ")";
      }
      sb.append(String.format(Locale.ROOT, "%-4s %-11s %-12s %-29s %-70s %d.%d%% (%d of %d)%n",
          r.rung().label(), r.rung().engineName(), r.rung().workloadName(), sound, weak,
          r.commitPerMille() / 10, r.commitPerMille() % 10, r.committed(), r.transactions()));
    }
    return sb.toString();
  }

  /** @return what AWDIT's commit-order cycle means one rung up, e.g. {@code  (fractured read)} */
  private static String gloss(RungResult r) {
    if (r.admitted() != Anomaly.COMMIT_ORDER_CYCLE) {
      return "";
    }
    return switch (r.rung().next()) {
      case READ_ATOMIC -> " (fractured read)";
      case CAUSAL -> " (causality violation)";
      default -> "";
    };
  }
}
