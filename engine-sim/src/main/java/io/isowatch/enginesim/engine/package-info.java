/**
 * The simulated database behind {@link io.isowatch.enginesim.engine.IsolationEngine}: one
 * multi-version engine ({@link io.isowatch.enginesim.engine.MvccEngine} over an {@link
 * io.isowatch.enginesim.engine.MvccStore}) at read uncommitted, read committed, snapshot isolation
 * and serializable (SSI), where what differs between the levels is one {@link
 * io.isowatch.enginesim.engine.LevelPolicy}; the serial engine ({@link
 * io.isowatch.enginesim.engine.SerialEngine}); and the factory {@link
 * io.isowatch.enginesim.engine.Engines}, which also builds the replicated read atomic and causal
 * stores of {@code io.isowatch.enginesim.replica}. The level of each engine holds by construction,
 * which lets the checkers be convicted and acquitted on purpose; {@link
 * io.isowatch.enginesim.engine.Fault} switches break it on purpose.
 */
package io.isowatch.enginesim.engine;
