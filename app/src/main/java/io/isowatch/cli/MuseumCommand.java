package io.isowatch.cli;

import io.isowatch.enginesim.ladder.LadderRun;
import io.isowatch.enginesim.ladder.Museum;
import io.isowatch.enginesim.ladder.RungResult;
import io.isowatch.enginesim.workload.KeyDistribution;
import io.isowatch.enginesim.workload.WorkloadSpec;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code isowatch museum}: runs the ladder of simulated engines ({@link LadderRun}) and prints it
 * ({@link Museum}). Exit code 0 when every rung is sound and every rung below the top admitted
 * the anomaly the next rung forbids, 1 otherwise.
 */
@Command(
    name = "museum",
    mixinStandardHelpOptions = true,
    exitCodeOnInvalidInput = ExitCode.BAD_INPUT,
    exitCodeOnExecutionException = ExitCode.INTERNAL_ERROR,
    versionProvider = IsowatchCli.Version.class,
    sortOptions = false,
    header = "Run the simulated engines up the isolation ladder and show what each one admits.",
    description = {
      "Runs a simulated database at each rung of the ladder read-uncommitted (RU), read-committed"
          + " (RC), read-atomic (RA), causal (CC), snapshot-isolation (SI), serializable (SER) on"
          + " seeded schedules under contention, and checks every history with the checkers of"
          + " 'isowatch check'. For each rung it prints:",
      "  soundness  'sound over N schedules' when the rung's own checker found nothing;",
      "  weakness   the anomaly of the next rung the engine produced, with the first",
      "             seed showing it (RU: G1, RC: a fractured read, RA: a causality",
      "             violation, CC: lost update or G-single, SI: G2-item, SER: nothing);",
      "  commit     committed transactions out of all (the rest the engine aborted).",
      "SI and SER run list-append (Adya's checkers); two more rows run the same SI and SER"
          + " engines on rw-register, decided by the polygraph (SI: G2-item, SER: nothing).",
      "RU, RC, SI and SER are one MVCC engine; RA and CC are replicated stores with asynchronous"
          + " delivery. docs/simulator.md explains the engines and the workloads.",
      ""
    },
    footer = {
      "",
      "Examples:",
      "  isowatch museum",
      "  isowatch museum --schedules 500 --seed 1000",
      "  isowatch museum --sessions 6 --keys 5 --key-distribution zipf",
      "",
      "Exit codes: 0 every rung sound and every weakness shown, 1 otherwise,",
      "            2 bad options."
    })
final class MuseumCommand implements Callable<Integer> {
  @Spec private CommandSpec spec;

  @Option(names = "--schedules", paramLabel = "N", converter = NumberRanges.Count.class,
      description = "Seeded schedules per rung (default: ${DEFAULT-VALUE}).")
  private int schedules = LadderRun.DEFAULT_SCHEDULES;

  @Option(names = "--seed", paramLabel = "S",
      description = "First seed; the schedules use seeds S .. S+N-1 (default: ${DEFAULT-VALUE}).")
  private long seed;

  @Option(names = "--sessions", converter = NumberRanges.Count.class, description = "Sessions per history (default: ${DEFAULT-VALUE}).")
  private int sessions = LadderRun.CONTENDED.sessions();

  @Option(names = "--keys", converter = NumberRanges.Count.class, description = "Keys per history (default: ${DEFAULT-VALUE}).")
  private int keys = LadderRun.CONTENDED.keys();

  @Option(names = "--txns-per-session", paramLabel = "T", converter = NumberRanges.Count.class,
      description = "Transactions per session (default: ${DEFAULT-VALUE}).")
  private int txnsPerSession = LadderRun.CONTENDED.txnsPerSession();

  @Option(names = "--ops-per-txn", paramLabel = "OPS", converter = NumberRanges.Count.class,
      description = "Operations per transaction (default: ${DEFAULT-VALUE}).")
  private int opsPerTxn = LadderRun.CONTENDED.opsPerTxn();

  @Option(names = "--read-ratio", paramLabel = "R",
      description = "Probability that an operation reads, in [0, 1] (default: ${DEFAULT-VALUE}).")
  private double readRatio = LadderRun.CONTENDED.readRatio();

  @Option(names = "--key-distribution", paramLabel = "D", converter = DistributionConverter.class,
      description = "How operations pick keys: uniform or zipf (default: uniform).")
  private KeyDistribution distribution = KeyDistribution.UNIFORM;

  @Override
  public Integer call() {
    WorkloadSpec workload;
    try {
      workload = new WorkloadSpec(sessions, keys, txnsPerSession, opsPerTxn, readRatio, 0, distribution);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage());
    }
    List<RungResult> results = LadderRun.run(workload, schedules, seed);
    PrintWriter out = spec.commandLine().getOut();
    out.printf(Locale.ROOT, "The isolation ladder over %d schedules per rung (seeds %d..%d): %d sessions, %d keys"
            + " (%s), %d transactions per session, %d operations each, read ratio %s%n%n",
        schedules, seed, seed + schedules - 1, sessions, keys, distribution.name().toLowerCase(Locale.ROOT),
        txnsPerSession, opsPerTxn, readRatio);
    out.print(Museum.render(results));
    out.flush();
    boolean ok = results.stream().allMatch(r -> r.sound() && (r.rung().next() == null || r.admitted() != null));
    return ok ? ExitCode.CONSISTENT : ExitCode.VIOLATION;
  }

  /** {@code --key-distribution}: {@code uniform} or {@code zipf}, the constants' names in lower case. */
  static final class DistributionConverter extends Choices<KeyDistribution> {
    /** The key distributions. */
    DistributionConverter() {
      super(v -> KeyDistribution.valueOf(v.strip().toUpperCase(Locale.ROOT)),
          names(d -> d.name().toLowerCase(Locale.ROOT), KeyDistribution.values()));
    }
  }
}
