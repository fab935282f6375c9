package io.isowatch.enginesim.ladder;

import io.isowatch.checker.level.Anomaly;

/**
 * What the ladder found for one rung over its schedules.
 *
 * @param rung the rung
 * @param schedules number of seeded schedules run, seeds {@code firstSeed .. firstSeed+schedules-1}
 * @param unsoundSchedules schedules whose history the rung's own checker found violated; 0 for a
 *     sound engine
 * @param firstUnsound the first anomaly the own checker reported at {@link #firstUnsoundSeed}, null
 *     when sound
 * @param firstUnsoundSeed the first seed with such a history, -1 when sound
 * @param admitted the anomaly the next rung forbids shown at {@link #admittedSeed} (the first of
 *     {@link Rung#admits()} the next checker reported there), null if none was seen (always for SER)
 * @param admittedSeed the first seed whose history shows it, -1 if none
 * @param admittedSchedules schedules whose history shows one of {@link Rung#admits()}
 * @param committed committed transactions over all schedules
 * @param transactions transactions over all schedules (committed + aborted)
 */
public record RungResult(
    Rung rung,
    int schedules,
    int unsoundSchedules,
    Anomaly firstUnsound,
    long firstUnsoundSeed,
    Anomaly admitted,
    long admittedSeed,
    int admittedSchedules,
    long committed,
    long transactions) {

  /** @return whether no schedule broke the rung's level */
  public boolean sound() {
    return unsoundSchedules == 0;
  }

  /** @return committed / transactions in per mille, rounded down; 0 when nothing ran */
  public int commitPerMille() {
    return transactions == 0 ? 0 : (int) (committed * 1000 / transactions);
  }
}
