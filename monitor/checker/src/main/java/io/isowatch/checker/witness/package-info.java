/** Violations and their witnesses as data (typed edges with their reasons), and check results. */
package io.isowatch.checker.witness;
