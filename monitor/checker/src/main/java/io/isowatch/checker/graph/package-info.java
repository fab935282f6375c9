/**
 * Graph algorithms the checkers share: a compact directed multigraph, strongly connected
 * components (iterative Tarjan), and cheapest paths and cycles by 0-1 breadth-first search.
 */
package io.isowatch.checker.graph;
