package io.isowatch.checker.witness;

import io.isowatch.checker.level.Anomaly;
import io.isowatch.checker.level.Level;

/**
 * A violation found in a history.
 *
 * @param anomaly what kind of violation
 * @param weakestLevelBroken the weakest level this evidence alone breaks: for a cycle, the strongest
 *     level any of its edges needs ({@link Because#level()}), at least the level the {@link
 *     io.isowatch.checker.level.ForbiddenAnomalies} gives the anomaly
 * @param witness the evidence
 */
public record Violation(Anomaly anomaly, Level weakestLevelBroken, Witness witness) {}
