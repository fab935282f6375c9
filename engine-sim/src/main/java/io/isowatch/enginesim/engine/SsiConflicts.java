package io.isowatch.enginesim.engine;

import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.objects.ObjectArrayList;

/**
 * Serializable snapshot isolation's bookkeeping (Cahill, Röhm &amp; Fekete, SIGMOD 2008, §3): the
 * SIREAD marks (which transactions read which object) and the rw-antidependencies between concurrent
 * transactions. A transaction with both an incoming and an outgoing rw-antidependency is a pivot;
 * every cycle of the dependency graph under snapshot isolation contains one (Fekete et al., TODS
 * 2005, Theorem 2.1), so refusing pivots leaves only serializable histories.
 *
 * <p>Cahill's flags are kept as edge lists so that edges from or to an aborted (or doomed)
 * transaction stop counting, as in PostgreSQL's implementation (Ports &amp; Grittner, VLDB 2012,
 * §5.1); otherwise the rule is the paper's conservative one: any pivot is refused, whether or not
 * the transactions around it commit in the order of the dangerous structure — which covers the
 * read-only anomaly (Fekete, O'Neil &amp; O'Neil, SIGMOD Record 2004), where a committed read-only
 * transaction supplies the pivot's incoming edge. An edge that would make an already committed
 * transaction a pivot dooms the active transaction whose operation creates it instead (Cahill et
 * al. §3.2). Memory: one mark per (object, reading transaction), kept for the engine's lifetime.
 */
final class SsiConflicts {
  private final ObjectArrayList<MvccTxn> txns;
  private final ObjectArrayList<IntArrayList> readers = new ObjectArrayList<>();

  /** @param txns every transaction of the engine, indexed by id (shared, read-only here) */
  SsiConflicts(ObjectArrayList<MvccTxn> txns) {
    this.txns = txns;
  }

  /**
   * Records that {@code reader} read {@code obj} without seeing the writes of {@code unseenWriters}
   * (committed after its snapshot, or not yet committed): an edge {@code reader -rw-> w} each.
   */
  void read(MvccTxn reader, int obj, IntArrayList unseenWriters) {
    while (readers.size() <= obj) {
      readers.add(new IntArrayList());
    }
    IntArrayList rs = readers.get(obj);
    if (rs.isEmpty() || rs.getInt(rs.size() - 1) != reader.id) {
      rs.add(reader.id);
    }
    for (int i = 0; i < unseenWriters.size(); i++) {
      edge(reader, txns.get(unseenWriters.getInt(i)), reader);
    }
  }

  /** Records that {@code writer} wrote {@code obj}: an edge {@code r -rw-> writer} for each concurrent reader. */
  void write(MvccTxn writer, int obj) {
    if (obj >= readers.size()) {
      return;
    }
    IntArrayList rs = readers.get(obj);
    for (int i = 0; i < rs.size(); i++) {
      MvccTxn r = txns.get(rs.getInt(i));
      if (r != writer && r.concurrentWith(writer)) {
        edge(r, writer, writer);
      }
    }
  }

  /** @return whether {@code t} has a live incoming and a live outgoing rw-antidependency */
  boolean pivot(MvccTxn t) {
    return anyLive(t.inConflicts) && anyLive(t.outConflicts);
  }

  private void edge(MvccTxn from, MvccTxn to, MvccTxn current) {
    if (from == to || !from.live() || !to.live()) {
      return;
    }
    if (!from.outConflicts.contains(to.id)) {
      from.outConflicts.add(to.id);
      to.inConflicts.add(from.id);
    }
    MvccTxn other = current == from ? to : from;
    if (other.state == MvccTxn.State.COMMITTED && pivot(other)) {
      current.doomed = true;
    }
  }

  private boolean anyLive(IntArrayList ids) {
    for (int i = 0; i < ids.size(); i++) {
      if (txns.get(ids.getInt(i)).live()) {
        return true;
      }
    }
    return false;
  }
}
