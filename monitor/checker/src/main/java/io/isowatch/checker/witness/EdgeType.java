package io.isowatch.checker.witness;

/** Types of edges in a witness, with the field's names. */
public enum EdgeType {
  /** Session order: both transactions belong to one session, the source first. */
  SO("so"),
  /** Write-read: the target read a value the source wrote. */
  WR("wr"),
  /** Write-write: the target overwrote (or appended after) the source's version of a key. */
  WW("ww"),
  /** Read-write (anti-dependency): the source read a version the target then overwrote. */
  RW("rw"),
  /** Commit order inferred by saturation ({@code co'}): forced by the level's axiom. */
  CO("co");

  private final String id;

  EdgeType(String id) {
    this.id = id;
  }

  /** @return the short name used in output: {@code so}, {@code wr}, {@code ww}, {@code rw}, {@code co} */
  public String id() {
    return id;
  }

  @Override
  public String toString() {
    return id;
  }
}
