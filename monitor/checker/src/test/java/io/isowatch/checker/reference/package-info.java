/**
 * Slow, literal transcriptions of the checks in {@code notes/semantics.md} (read committed, read
 * atomic, causal consistency), a permissive random history generator, and a printer back to the
 * test notation: the oracle the fast checkers of {@code io.isowatch.checker.awdit} are compared with.
 */
package io.isowatch.checker.reference;
