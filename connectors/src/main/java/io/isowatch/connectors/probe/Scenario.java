package io.isowatch.connectors.probe;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.stream.Collectors;

/**
 * Transaction shapes built to provoke one anomaly, when the isolation level allows it, under
 * contention (few keys, several sessions). Keys are taken in pairs {@code (2p, 2p+1)}; "write"
 * below is an append on list-append and a register write on rw-register.
 *
 * <ul>
 *   <li>{@link #WRITE_SKEW} (G2-item; Berenson et al., SIGMOD 1995, A5B): every transaction reads
 *       both keys of a pair, then writes one of them, chosen at random. Two such transactions on
 *       snapshots that miss each other form a cycle of two {@code rw} edges.
 *   <li>{@link #READ_SKEW} (G-single; A5A): half the transactions read both keys of a pair, the
 *       other half write both. A reader that sees a writer's second key but not its first forms a
 *       cycle with one {@code rw} edge.
 *   <li>{@link #LOST_UPDATE} (P4): every transaction reads one key, then writes it. Two that read
 *       the same version and both commit are a lost update.
 * </ul>
 *
 * {@link #RANDOM} is the general workload: one to four operations, each a read or a write of a key
 * drawn uniformly.
 */
public enum Scenario {
  RANDOM,
  WRITE_SKEW,
  READ_SKEW,
  LOST_UPDATE;

  /** One planned operation: a read or a write of key number {@code key}. */
  record Step(boolean write, int key) {}

  /**
   * @param rnd the session's random source
   * @param keys the number of keys, {@code >= 2} for the pair scenarios
   * @return the steps of the next transaction, in program order
   */
  List<Step> plan(SplittableRandom rnd, int keys) {
    switch (this) {
      case WRITE_SKEW: {
        int a = 2 * rnd.nextInt(keys / 2);
        return List.of(new Step(false, a), new Step(false, a + 1), new Step(true, a + rnd.nextInt(2)));
      }
      case READ_SKEW: {
        int a = 2 * rnd.nextInt(keys / 2);
        boolean write = rnd.nextBoolean();
        return List.of(new Step(write, a), new Step(write, a + 1));
      }
      case LOST_UPDATE: {
        int k = rnd.nextInt(keys);
        return List.of(new Step(false, k), new Step(true, k));
      }
      default: {
        int n = 1 + rnd.nextInt(4);
        Step[] steps = new Step[n];
        for (int i = 0; i < n; i++) {
          steps[i] = new Step(rnd.nextBoolean(), rnd.nextInt(keys));
        }
        return List.of(steps);
      }
    }
  }

  /** @return the least number of keys the scenario needs: 2 for the pair scenarios, else 1 */
  public int minKeys() {
    return this == WRITE_SKEW || this == READ_SKEW ? 2 : 1;
  }

  /** @return the command-line name, e.g. {@code write-skew} */
  public String cliName() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  /**
   * @param name a {@link #cliName()}, case-insensitive, {@code _} allowed
   * @return the scenario
   * @throws IllegalArgumentException naming the accepted names
   */
  public static Scenario parse(String name) {
    String n = name.strip().toLowerCase(Locale.ROOT).replace('_', '-');
    for (Scenario s : values()) {
      if (s.cliName().equals(n)) {
        return s;
      }
    }
    throw new IllegalArgumentException("unknown scenario '" + name + "'; expected one of "
        + Arrays.stream(values()).map(Scenario::cliName).collect(Collectors.joining(", ")));
  }

  @Override
  public String toString() {
    return cliName();
  }
}
