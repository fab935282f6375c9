/**
 * The checker benchmark: {@link io.isowatch.bench.CheckerBenchmark} times the AWDIT checkers on the
 * generated families of {@link io.isowatch.bench.family} and prints the tables of {@code
 * docs/PERFORMANCE.md}.
 */
package io.isowatch.bench;
