package io.isowatch.checker.graph;

/**
 * How many intervals of positions cover each <em>cut</em> of an order: cut {@code c} lies between
 * positions {@code c} and {@code c + 1}, and the interval {@code [p, q]} ({@code p < q}) covers cuts
 * {@code p .. q-1}. Kept in a segment tree over the cuts with range addition and range minimum
 * (counts are never negative, so "uncovered" is "minimum 0"); it answers whether a range of cuts is
 * covered and where the covered run around a position ends, each in O(log n) for n the highest
 * position seen. Cuts never touched are uncovered; the tree doubles as positions grow (the old tree
 * becomes the new root's left half, O(n) per doubling).
 *
 * <p>The incremental Adya check's graph ({@code adya.LiveDependencies}) covers, for each edge that goes down in a
 * topological order, the positions it spans: a cycle's positions are then inside one covered run.
 */
public final class CutCover {
  private int cap = 1024;
  /** Per tree node (root 1, children 2i and 2i+1): minimum count in its subtree, its own addition included. */
  private int[] min = new int[2 * cap];
  /** Per tree node: what was added to its whole subtree and not pushed below it. */
  private int[] add = new int[2 * cap];

  /**
   * Adds {@code delta} to the count of each cut covered by {@code [p, q]}: cuts {@code p .. q-1};
   * nothing for {@code p >= q}.
   *
   * @throws IllegalArgumentException if a count would become negative, or {@code p} is negative
   */
  public void add(int p, int q, int delta) {
    if (p >= q) {
      return;
    }
    if (p < 0) {
      throw new IllegalArgumentException("negative position " + p);
    }
    grow(q - 1);
    update(1, 0, cap - 1, p, q - 1, delta);
    if (min[1] < 0) {
      update(1, 0, cap - 1, p, q - 1, -delta);
      throw new IllegalArgumentException("cuts " + p + ".." + (q - 1) + " would be covered a negative number of times");
    }
  }

  /** @return whether every cut {@code p .. q-1} is covered (true for {@code p >= q}) */
  public boolean covered(int p, int q) {
    if (p >= q) {
      return true;
    }
    if (q - 1 >= cap) {
      return false;
    }
    return rangeMin(1, 0, cap - 1, p, q - 1, 0) > 0;
  }

  /**
   * @return the lowest position {@code lo <= p} such that cuts {@code lo .. p-1} are all covered:
   *     where the covered run that ends at or passes {@code p} starts ({@code p} itself if cut {@code
   *     p-1} is uncovered)
   */
  public int runStart(int p) {
    if (p <= 0) {
      return 0;
    }
    int c = Math.min(p - 1, cap - 1);
    if (c < p - 1) {
      return p; // cut p-1 was never touched
    }
    return lastZero(1, 0, cap - 1, c, 0) + 1;
  }

  /**
   * @return the highest position {@code hi >= q} such that cuts {@code q .. hi-1} are all covered:
   *     where the covered run that starts at or passes {@code q} ends ({@code q} itself if cut {@code
   *     q} is uncovered)
   */
  public int runEnd(int q) {
    if (q >= cap) {
      return q;
    }
    int z = firstZero(1, 0, cap - 1, q, 0);
    return z < 0 ? cap : z;
  }

  private void grow(int cut) {
    while (cut >= cap) {
      int[] m = new int[4 * cap];
      int[] a = new int[4 * cap];
      for (int level = 1; level <= cap; level <<= 1) {
        System.arraycopy(min, level, m, 2 * level, level);
        System.arraycopy(add, level, a, 2 * level, level);
      }
      m[1] = Math.min(m[2], m[3]);
      cap *= 2;
      min = m;
      add = a;
    }
  }

  private void update(int node, int lo, int hi, int l, int r, int delta) {
    if (r < lo || hi < l) {
      return;
    }
    if (l <= lo && hi <= r) {
      add[node] += delta;
      min[node] += delta;
      return;
    }
    int mid = (lo + hi) >>> 1;
    update(2 * node, lo, mid, l, r, delta);
    update(2 * node + 1, mid + 1, hi, l, r, delta);
    min[node] = add[node] + Math.min(min[2 * node], min[2 * node + 1]);
  }

  /** @param above the additions of the node's strict ancestors */
  private int rangeMin(int node, int lo, int hi, int l, int r, int above) {
    if (r < lo || hi < l) {
      return Integer.MAX_VALUE;
    }
    if (l <= lo && hi <= r) {
      return above + min[node];
    }
    int mid = (lo + hi) >>> 1;
    int below = above + add[node];
    return Math.min(rangeMin(2 * node, lo, mid, l, r, below), rangeMin(2 * node + 1, mid + 1, hi, l, r, below));
  }

  /** @return the highest cut at most {@code c} with count 0 in this subtree, or -1 */
  private int lastZero(int node, int lo, int hi, int c, int above) {
    if (lo > c || above + min[node] > 0) {
      return -1;
    }
    if (lo == hi) {
      return lo;
    }
    int mid = (lo + hi) >>> 1;
    int below = above + add[node];
    int right = lastZero(2 * node + 1, mid + 1, hi, c, below);
    return right >= 0 ? right : lastZero(2 * node, lo, mid, c, below);
  }

  /** @return the lowest cut at least {@code c} with count 0 in this subtree, or -1 */
  private int firstZero(int node, int lo, int hi, int c, int above) {
    if (hi < c || above + min[node] > 0) {
      return -1;
    }
    if (lo == hi) {
      return lo;
    }
    int mid = (lo + hi) >>> 1;
    int below = above + add[node];
    int left = firstZero(2 * node, lo, mid, c, below);
    return left >= 0 ? left : firstZero(2 * node + 1, mid + 1, hi, c, below);
  }
}
