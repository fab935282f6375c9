/**
 * Generators of benchmark histories, written straight into the checker's columnar {@code History}:
 * large consistent register histories from a sequential database, and the wide-reader staircases
 * that are the worst cases of AWDIT's read committed and read atomic saturation.
 */
package io.isowatch.bench.family;
