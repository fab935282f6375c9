package io.isowatch.checker.graph;

import it.unimi.dsi.fastutil.ints.IntArrayList;
import java.util.Arrays;
import java.util.function.IntPredicate;

/**
 * Strongly connected components by Tarjan's algorithm (SIAM J. Comput. 1(2), 1972), written
 * iteratively with explicit stacks so that deep graphs (10^6 nodes in a chain) cannot overflow the
 * call stack. O(nodes + edges) time, four int arrays of size nodes.
 */
public final class Components {
  private final int[] component;
  private final int[] size;

  private Components(int[] component, int[] size) {
    this.component = component;
    this.size = size;
  }

  /**
   * @param g the graph
   * @param allowed which edge ids to follow; others are ignored
   * @return the components of the subgraph of allowed edges
   */
  public static Components of(Digraph g, IntPredicate allowed) {
    int n = g.nodeCount();
    int[] index = new int[n];
    int[] low = new int[n];
    int[] comp = new int[n];
    Arrays.fill(index, -1);
    int[] stack = new int[n];
    boolean[] onStack = new boolean[n];
    int sp = 0;
    int[] callNode = new int[n];
    int[] callPos = new int[n];
    int counter = 0;
    int comps = 0;
    IntArrayList sizes = new IntArrayList();
    for (int root = 0; root < n; root++) {
      if (index[root] >= 0) {
        continue;
      }
      int depth = 0;
      callNode[0] = root;
      callPos[0] = g.outStart(root);
      index[root] = low[root] = counter++;
      stack[sp++] = root;
      onStack[root] = true;
      while (depth >= 0) {
        int v = callNode[depth];
        int end = g.outEnd(v);
        boolean descended = false;
        while (callPos[depth] < end) {
          int e = g.outEdge(callPos[depth]++);
          if (!allowed.test(e)) {
            continue;
          }
          int w = g.to(e);
          if (index[w] < 0) {
            index[w] = low[w] = counter++;
            stack[sp++] = w;
            onStack[w] = true;
            depth++;
            callNode[depth] = w;
            callPos[depth] = g.outStart(w);
            descended = true;
            break;
          } else if (onStack[w] && index[w] < low[v]) {
            low[v] = index[w];
          }
        }
        if (descended) {
          continue;
        }
        if (low[v] == index[v]) {
          int count = 0;
          int w;
          do {
            w = stack[--sp];
            onStack[w] = false;
            comp[w] = comps;
            count++;
          } while (w != v);
          sizes.add(count);
          comps++;
        }
        depth--;
        if (depth >= 0) {
          int parent = callNode[depth];
          if (low[v] < low[parent]) {
            low[parent] = low[v];
          }
        }
      }
    }
    return new Components(comp, sizes.toIntArray());
  }

  /** @return the number of components */
  public int count() {
    return size.length;
  }

  /** @return the component id of node {@code v}, {@code 0..count()-1} (reverse topological order) */
  public int of(int v) {
    return component[v];
  }

  /** @return the number of nodes in component {@code c} */
  public int size(int c) {
    return size[c];
  }
}
