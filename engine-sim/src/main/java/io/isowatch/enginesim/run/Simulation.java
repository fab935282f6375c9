package io.isowatch.enginesim.run;

import io.isowatch.checker.history.History;
import io.isowatch.checker.history.OpKind;
import io.isowatch.enginesim.engine.IsolationEngine;
import io.isowatch.enginesim.workload.ProgramOp;
import io.isowatch.enginesim.workload.RegisterWorkload;
import io.isowatch.enginesim.workload.WorkloadSpec;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Consumer;

/**
 * Runs a workload against an engine in a seeded interleaving and returns the history the clients
 * saw.
 *
 * <p>Each step picks one unfinished session uniformly at random and lets it take its next step:
 * begin (if the engine answers {@link IsolationEngine#WAIT}, the session tries again at a later
 * pick), one operation, or commit after its last operation. So operations of different sessions
 * interleave at operation granularity. While the engine has asynchronous work pending ({@link
 * IsolationEngine#pendingDeliveries()}), one more choice, as likely as each session, is a delivery
 * step ({@link IsolationEngine#deliver}). A transaction the engine refuses at commit is recorded as
 * aborted and not retried. Deterministic: {@link java.util.Random} seeded with the
 * schedule seed; the same engine class, workload and seed give the same history. Cost: O(total
 * operations + waits); a session that waits holds nothing, and the session it waits for is always
 * runnable, so the run ends.
 */
public final class Simulation {
  private Simulation() {}

  /**
   * Generates the rw-register workload of {@code spec} ({@link RegisterWorkload}) and runs it with
   * {@link WorkloadSpec#scheduleSeed()}.
   *
   * @param engine a fresh engine
   * @return the history, sessions {@code s0, s1, ...} interned in that order
   */
  public static History run(IsolationEngine engine, WorkloadSpec spec) {
    return run(engine, RegisterWorkload.generate(spec), spec.scheduleSeed());
  }

  /**
   * @param engine a fresh engine
   * @param programs per session {@code s<i>}, its transactions in session order, each a list of
   *     operations in program order
   * @param scheduleSeed decides the interleaving
   * @return the history, sessions {@code s0, s1, ...} interned in that order
   */
  public static History run(IsolationEngine engine, List<List<List<ProgramOp>>> programs, long scheduleSeed) {
    return run(engine, programs, scheduleSeed, t -> {});
  }

  /**
   * Runs the programs and hands each transaction to {@code listener} as it ends: the stream of
   * completed transactions, in the order of the returned history.
   *
   * @param engine a fresh engine
   * @param programs per session {@code s<i>}, its transactions in session order, each a list of
   *     operations in program order ({@link ProgramOp}: register or list operations)
   * @param scheduleSeed decides the interleaving and the delivery steps
   * @param listener called once per ended transaction, committed or aborted, on the calling thread
   * @return the history, sessions {@code s0, s1, ...} interned in that order
   */
  public static History run(IsolationEngine engine, List<List<List<ProgramOp>>> programs, long scheduleSeed,
      Consumer<SimTransaction> listener) {
    History history = new History();
    int n = programs.size();
    Client[] clients = new Client[n];
    int[] nextTxn = new int[n];
    int[] nextOp = new int[n];
    IntArrayList unfinished = new IntArrayList();
    for (int s = 0; s < n; s++) {
      clients[s] = new Client(engine, history, RegisterWorkload.sessionName(s), listener);
      if (!programs.get(s).isEmpty()) {
        unfinished.add(s);
      }
    }
    Random rnd = new Random(scheduleSeed);
    while (!unfinished.isEmpty()) {
      boolean delivering = engine.pendingDeliveries() > 0;
      int pick = rnd.nextInt(unfinished.size() + (delivering ? 1 : 0));
      if (pick == unfinished.size()) {
        engine.deliver(rnd);
        continue;
      }
      int s = unfinished.getInt(pick);
      Client c = clients[s];
      if (!c.inTxn()) {
        c.begin();
        continue;
      }
      List<ProgramOp> ops = programs.get(s).get(nextTxn[s]);
      if (nextOp[s] < ops.size()) {
        ProgramOp op = ops.get(nextOp[s]++);
        switch (op.kind()) {
          case OpKind.READ -> c.read(op.key());
          case OpKind.WRITE -> c.write(op.key(), op.value());
          case OpKind.READ_LIST -> c.readList(op.key());
          default -> c.append(op.key(), op.value());
        }
        continue;
      }
      c.commit();
      nextOp[s] = 0;
      if (++nextTxn[s] == programs.get(s).size()) {
        unfinished.removeInt(pick);
      }
    }
    return history;
  }
}
