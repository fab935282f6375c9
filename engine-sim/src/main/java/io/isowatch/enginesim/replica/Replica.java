package io.isowatch.enginesim.replica;

import it.unimi.dsi.fastutil.objects.ObjectArrayList;

/**
 * One copy of the data: the versions applied here, each stamped with the replica's apply sequence
 * number, so that a transaction can read the state as of its begin (a prefix of what was applied).
 * Among the versions of an object in that prefix, the one with the highest commit timestamp wins
 * (last writer wins), so replicas that applied the same transactions in different orders agree.
 *
 * <p>{@link #applied} is this replica's vector clock (Ahamad et al., Distributed Computing 1995,
 * §4; COPS, Lloyd et al., SOSP 2011, §3): entry {@code r} counts the transactions originated at
 * replica {@code r} applied here. Memory: one entry per applied version.
 */
final class Replica {
  /** One applied version: apply sequence number, writer's commit timestamp, and the payload. */
  record Applied(long seq, long ts, long value, long[] list) {}

  final int id;
  /** Entry {@code r}: transactions of origin {@code r} fully applied here. */
  final int[] applied;
  /** Apply sequence number of the last version applied. */
  long seq;
  private final ObjectArrayList<ObjectArrayList<Applied>> versions = new ObjectArrayList<>();

  Replica(int id, int replicas) {
    this.id = id;
    this.applied = new int[replicas];
  }

  /** Applies one version of {@code obj} (with a new apply sequence number). */
  void apply(int obj, long ts, long value, long[] list) {
    while (versions.size() <= obj) {
      versions.add(new ObjectArrayList<>());
    }
    versions.get(obj).add(new Applied(++seq, ts, value, list));
  }

  /**
   * @param upToSeq the apply sequence number of the reader's snapshot
   * @return the winning version of {@code obj} among those applied by then, {@code null} for the
   *     initial state
   */
  Applied visible(int obj, long upToSeq) {
    Applied best = null;
    if (obj < versions.size()) {
      for (Applied a : versions.get(obj)) {
        if (a.seq() <= upToSeq && (best == null || a.ts() > best.ts())) {
          best = a;
        }
      }
    }
    return best;
  }
}
