package io.isowatch.checker.window;

import io.isowatch.checker.history.History;
import io.isowatch.checker.history.OpKind;
import io.isowatch.checker.history.TestHistories;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/** Turns test histories into the window checker's input. */
final class WindowTxns {
  private WindowTxns() {}

  /** @return transaction {@code t} of {@code h} with id {@code T<label>}, event time {@code t} µs */
  static WindowTxn of(History h, int t) {
    return of(h, t, "T" + h.label(t), t);
  }

  /** @return transaction {@code t} of {@code h} with the given id and event time */
  static WindowTxn of(History h, int t, String id, long eventTime) {
    WindowTxn.Builder b = WindowTxn.builder(id, h.sessionName(h.sessionOf(t)), eventTime, h.status(t));
    for (int op = h.opStart(t); op < h.opEnd(t); op++) {
      String key = h.keyName(h.opKey(op));
      switch (h.opKind(op)) {
        case OpKind.READ:
          b.read(key, h.opValue(op));
          break;
        case OpKind.READ_LIST: {
          long[] list = new long[h.listLength(op)];
          for (int i = 0; i < list.length; i++) {
            list[i] = h.listElement(op, i);
          }
          b.readList(key, list);
          break;
        }
        case OpKind.WRITE:
          b.write(key, h.opValue(op));
          break;
        default:
          b.append(key, h.opValue(op));
      }
    }
    return b.build();
  }

  /** @return the transactions of a history in the {@link TestHistories} notation, in its order */
  static List<WindowTxn> parse(String text) {
    History h = TestHistories.parse(text);
    List<WindowTxn> out = new ArrayList<>();
    for (int t = 0; t < h.txnCount(); t++) {
      out.add(of(h, t));
    }
    return out;
  }

  /** @return every transaction of {@code h} once, each session's in order, sessions interleaved at random */
  static List<WindowTxn> shuffled(History h, long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    int[] next = new int[h.sessionCount()];
    List<WindowTxn> order = new ArrayList<>();
    while (order.size() < h.txnCount()) {
      int s = rnd.nextInt(h.sessionCount());
      if (next[s] < h.sessionTxns(s).size()) {
        int t = h.sessionTxns(s).getInt(next[s]++);
        order.add(of(h, t, "t" + t, order.size()));
      }
    }
    return order;
  }
}
