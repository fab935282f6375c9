/**
 * Graph algorithms the checkers share: a compact directed multigraph, strongly connected
 * components (iterative Tarjan), cheapest paths and cycles by 0-1 breadth-first search, a dynamic
 * topological order (Pearce–Kelly) and the cover of an order's cuts by intervals of positions.
 */
package io.isowatch.checker.graph;
