/**
 * Measuring the checkers: one point per (family, size, level) in a fresh child JVM, wall time of
 * generation and check, peak heap from the memory pools, least-squares scaling exponents, and the
 * Markdown report.
 */
package io.isowatch.bench.measure;
