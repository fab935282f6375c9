package io.isowatch.checker.polygraph;

/**
 * The search's decision order: variables in a binary max-heap on their activity (VSIDS, Moskewicz et
 * al., "Chaff", DAC 2001; the heap as in MiniSat, Eén &amp; Sörensson, SAT 2003), ties to the lower
 * index. Invariant: {@code heapIndex[heap[i]] == i} for every position {@code i < size}, and -1 for a
 * variable not in the heap; a parent's activity is at least its children's.
 */
final class ActivityHeap {
  private final double[] activity;
  private final int[] heap;
  private final int[] heapIndex;
  private int size;

  /**
   * @param activity the variables' activities, shared with the search, which raises them and then
   *     calls {@link #raised}; every variable starts in the heap
   */
  ActivityHeap(double[] activity) {
    this.activity = activity;
    int m = activity.length;
    heap = new int[m];
    heapIndex = new int[m];
    for (int v = 0; v < m; v++) {
      heap[v] = v;
      heapIndex[v] = v;
    }
    size = m;
  }

  /** @return whether no variable is in the heap */
  boolean isEmpty() {
    return size == 0;
  }

  /** @return the variable of highest activity, removed from the heap; the heap must not be empty */
  int removeTop() {
    int top = heap[0];
    heapIndex[top] = -1;
    size--;
    if (size > 0) {
      heap[0] = heap[size];
      heapIndex[heap[0]] = 0;
      down(0);
    }
    return top;
  }

  /** Puts {@code v} back, if it is not in the heap. */
  void insert(int v) {
    if (heapIndex[v] >= 0) {
      return;
    }
    heap[size] = v;
    heapIndex[v] = size;
    up(size++);
  }

  /** Restores the order after {@code v}'s activity grew (a uniform rescale keeps it as it is). */
  void raised(int v) {
    if (heapIndex[v] >= 0) {
      up(heapIndex[v]);
    }
  }

  private boolean higher(int a, int b) {
    return activity[a] > activity[b] || (activity[a] == activity[b] && a < b);
  }

  private void up(int i) {
    int v = heap[i];
    while (i > 0 && higher(v, heap[(i - 1) / 2])) {
      heap[i] = heap[(i - 1) / 2];
      heapIndex[heap[i]] = i;
      i = (i - 1) / 2;
    }
    heap[i] = v;
    heapIndex[v] = i;
  }

  private void down(int i) {
    int v = heap[i];
    while (2 * i + 1 < size) {
      int c = 2 * i + 1;
      if (c + 1 < size && higher(heap[c + 1], heap[c])) {
        c++;
      }
      if (!higher(heap[c], v)) {
        break;
      }
      heap[i] = heap[c];
      heapIndex[heap[i]] = i;
      i = c;
    }
    heap[i] = v;
    heapIndex[v] = i;
  }
}
