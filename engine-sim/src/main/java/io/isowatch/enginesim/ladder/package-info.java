/**
 * The ladder RU ⊂ RC ⊂ RA ⊂ CC ⊂ SI ⊂ SER run against the simulated engines ({@link
 * io.isowatch.enginesim.ladder.LadderRun}): each rung sound over seeded schedules, each admitting the
 * anomaly the next rung forbids, printed as a table by {@link io.isowatch.enginesim.ladder.Museum}
 * ({@code isowatch museum}).
 */
package io.isowatch.enginesim.ladder;
