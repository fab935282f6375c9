/** Levels, anomalies, verdicts, and the one table of which level forbids which anomaly. */
package io.isowatch.checker.level;
