package io.isowatch.checker.witness;

/**
 * One typed edge of a witness, between two transactions of the history.
 *
 * @param from source transaction id
 * @param to target transaction id
 * @param type {@code so}, {@code wr}, {@code ww}, {@code rw} or inferred {@code co}
 * @param because the observation or axiom premise that makes the edge hold
 * @param key the key involved (read, written or both), -1 for {@code so}
 * @param value the value read or written that the explanation cites, {@link
 *     io.isowatch.checker.history.History#NIL} when none
 * @param via for inferred {@code co} edges, the reader transaction whose reads force the edge; for
 *     the axiomatic checkers' {@code ww} edges, the reader whose list read shows the order; -1
 *     otherwise
 */
public record Edge(int from, int to, EdgeType type, Because because, int key, long value, int via) {}
