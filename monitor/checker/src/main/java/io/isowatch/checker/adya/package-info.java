/**
 * Adya's phenomena (Adya, MIT 1999, §3–4) with the version order recovered from the reads (Elle,
 * Kingsbury &amp; Alvaro, VLDB 2020): on list-append keys the whole order, on register keys the part
 * that the initial state and writes-follow-reads reveal (Elle §5, rw-register); version orders,
 * non-cycle anomalies, the dependency graph, the search for G0, G1c, G-single, G-nonadjacent and
 * G2-item cycles, and the batch and incremental checkers.
 */
package io.isowatch.checker.adya;
