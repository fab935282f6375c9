/**
 * Read committed, read atomic and causal consistency by saturation, after AWDIT (Møldrup &amp;
 * Pavlogiannis, PLDI 2025): read resolution with the basic axioms, the per-level saturation,
 * scheduling in a topological order of {@code so ∪ wr}, and batch and incremental cycle search.
 */
package io.isowatch.checker.awdit;
