package io.isowatch.enginesim.replica;

/**
 * A transaction whose writes are on their way to the replicas.
 *
 * @param id the engine transaction id
 * @param origin the replica of its session
 * @param originSeq its number among the transactions of {@code origin}, from 1 (causal: FIFO per
 *     origin)
 * @param deps the origin's vector clock when it committed: its causal past (causal delivery waits
 *     for it)
 * @param ts its commit timestamp (last writer wins)
 * @param objects the objects written, in the order of first write
 * @param values per object, the register value (lists: unused)
 * @param lists per object, the whole list written (registers: unused)
 */
record ReplicatedTxn(int id, int origin, int originSeq, int[] deps, long ts, int[] objects, long[] values, long[][] lists) {}
