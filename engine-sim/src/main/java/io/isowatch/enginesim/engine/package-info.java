/**
 * The simulated database: one multi-version store ({@link io.isowatch.enginesim.engine.MvccStore})
 * and one small engine class per isolation level behind {@link
 * io.isowatch.enginesim.engine.IsolationEngine}, so that what differs between levels stays small and
 * visible: which transactions may start ({@code admits}) and which committed version a read sees
 * ({@code readVisible}). The level of each engine holds by construction, which lets the checkers be
 * convicted and acquitted on purpose.
 *
 * <p>Levels so far: {@link io.isowatch.enginesim.engine.SerialEngine} (serializable: one transaction
 * at a time) and {@link io.isowatch.enginesim.engine.ReadCommittedEngine}. Read uncommitted,
 * snapshot isolation, SSI and the replicated read atomic and causal stores follow the same pattern.
 */
package io.isowatch.enginesim.engine;
