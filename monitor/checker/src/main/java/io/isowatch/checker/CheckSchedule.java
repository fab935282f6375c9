package io.isowatch.checker;

import io.isowatch.checker.history.History;
import io.isowatch.checker.level.Verdict;
import io.isowatch.checker.witness.CheckResult;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;

/**
 * Runs a list of checks on one history the way {@code isowatch check} needs them, doing less work
 * than running each in turn and giving the same results:
 *
 * <ul>
 *   <li><b>Implied checks are not run.</b> The axiomatic levels are nested: a history that satisfies
 *       causal consistency satisfies read atomic, and one that satisfies read atomic satisfies read
 *       committed (Biswas &amp; Enea, OOPSLA 2019, §3: the three share the basic axioms, and each
 *       axiom's premise, {@code (so ∪ wr)+}, {@code so ∪ wr}, {@code wr} into an earlier operation,
 *       contains the next one's, so the commit order that witnesses the stronger level witnesses the
 *       weaker). The axiomatic checks are therefore run strongest first, and once one finds the
 *       history consistent, every weaker axiomatic check's result is {@link Verdict#CONSISTENT}
 *       with no violation, which is what the weaker checker returns on such a history ({@link
 *       LevelPlan#implies}; {@code CheckSchedulePropertyTest}). A violated or undecided stronger
 *       check implies nothing, and the weaker checks run as before. Likewise Adya's read
 *       uncommitted check of a register history is implied by any consistent axiomatic check (its
 *       G0 graph's edges all lie in the axiomatic commit order, {@link LevelPlan#implies}).
 *   <li><b>Two lanes.</b> The axiomatic checks run on the calling thread; the other checks (Adya's,
 *       the polygraph's), which share nothing with them, run meanwhile in order on one more
 *       thread. A check of the second lane that an axiomatic check may imply runs last there (on
 *       the calling thread when no other check needs a second lane), once the axiomatic lane is
 *       done, and only if not implied: on a consistent register history
 *       {@code check --level read-committed} thus runs the read committed check alone. The history
 *       is only read by the checks.
 * </ul>
 *
 * <p>Memory: the two lanes' checkers hold their working sets at once, so the peak is about the sum
 * of the largest axiomatic and the largest other check's instead of the larger of the two.
 */
public final class CheckSchedule {
  /**
   * One check's outcome.
   *
   * @param check the check
   * @param result its result
   * @param millis wall-clock milliseconds it took; 0 for an implied check
   * @param impliedBy for a check not run because a stronger axiomatic check found the history
   *     consistent, that check; else null
   */
  public record Outcome(LevelPlan.Check check, CheckResult result, long millis, LevelPlan.Check impliedBy) {}

  /** Told of each outcome as it is known, from either lane's thread. */
  public interface Listener {
    /** @param outcome a check's outcome */
    void done(Outcome outcome);
  }

  private CheckSchedule() {}

  /**
   * @param history the history, not modified while this runs
   * @param checks the checks, in any order (the result keeps it)
   * @param checker makes a new checker for a check (the caller's session order and budget)
   * @param listener told of each outcome as it is known (called from the lanes' threads)
   * @return one outcome per check, index by index
   * @throws RuntimeException what a checker threw
   * @throws CheckOutOfMemoryError when the heap ran out in a check, naming it
   */
  public static List<Outcome> run(History history, List<LevelPlan.Check> checks,
      Function<LevelPlan.Check, Checker> checker, Listener listener) {
    Outcome[] out = new Outcome[checks.size()];
    boolean listAppend = LevelPlan.hasListAppend(history);
    List<Integer> axiomatic = new ArrayList<>();
    List<Integer> others = new ArrayList<>();
    List<Integer> deferred = new ArrayList<>();
    for (int i = 0; i < checks.size(); i++) {
      (checks.get(i).model() == LevelPlan.Model.AXIOMATIC ? axiomatic : others).add(i);
    }
    for (int i : others) {
      for (int a : axiomatic) {
        if (LevelPlan.implies(checks.get(a), checks.get(i), listAppend)) {
          deferred.add(i);
          break;
        }
      }
    }
    others.removeAll(deferred);
    axiomatic.sort((a, b) -> checks.get(b).level().compareTo(checks.get(a).level()));
    // the second lane only when it has checks to run beside the axiomatic ones: deferred checks
    // alone wait for the axiomatic lane anyway, and run after it on this thread (the thread, its
    // executor and the future were part of the 20-30 ms that a one-line check lost with this and
    // TextReport's grouping, docs/PERFORMANCE.md, "issue 20, fifth part")
    ExecutorService lane = others.isEmpty() || axiomatic.isEmpty() ? null
        : Executors.newSingleThreadExecutor(r -> {
          Thread t = new Thread(r, "isowatch-check-lane");
          t.setDaemon(true);
          return t;
        });
    CompletableFuture<LevelPlan.Check> axiomaticDone = lane == null ? null : new CompletableFuture<>();
    try {
      Future<?> second = lane == null ? null : lane.submit(() -> {
        runEach(history, checks, others, checker, listener, out);
        runDeferred(history, checks, deferred, checker, listener, out, axiomaticDone.join(), listAppend);
      });
      if (lane == null) {
        runEach(history, checks, others, checker, listener, out);
      }
      LevelPlan.Check consistent = null;
      try {
        for (int i : axiomatic) {
          LevelPlan.Check c = checks.get(i);
          if (consistent != null && LevelPlan.implies(consistent, c, listAppend)) {
            out[i] = implied(c, consistent);
            listener.done(out[i]);
            continue;
          }
          out[i] = timed(history, c, checker);
          listener.done(out[i]);
          if (consistent == null && out[i].result().verdict() == Verdict.CONSISTENT) {
            consistent = c;
          }
        }
      } finally {
        if (axiomaticDone != null) {
          axiomaticDone.complete(consistent);
        }
      }
      if (second != null) {
        second.get();
      } else {
        runDeferred(history, checks, deferred, checker, listener, out, consistent, listAppend);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while checking", e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      if (e.getCause() instanceof Error err) {
        throw err;
      }
      throw new IllegalStateException(e.getCause());
    } finally {
      if (lane != null) {
        lane.shutdownNow();
      }
    }
    return Arrays.asList(out);
  }

  /**
   * Runs the checks that a consistent axiomatic check may imply, once the axiomatic lane is done.
   *
   * @param consistent the strongest axiomatic check that found the history consistent, or null
   */
  private static void runDeferred(History history, List<LevelPlan.Check> checks, List<Integer> which,
      Function<LevelPlan.Check, Checker> checker, Listener listener, Outcome[] out,
      LevelPlan.Check consistent, boolean listAppend) {
    for (int i : which) {
      LevelPlan.Check c = checks.get(i);
      out[i] = consistent != null && LevelPlan.implies(consistent, c, listAppend)
          ? implied(c, consistent) : timed(history, c, checker);
      listener.done(out[i]);
    }
  }

  private static Outcome implied(LevelPlan.Check c, LevelPlan.Check by) {
    return new Outcome(c, CheckResult.of(c.level(), List.of()), 0, by);
  }

  private static void runEach(History history, List<LevelPlan.Check> checks, List<Integer> which,
      Function<LevelPlan.Check, Checker> checker, Listener listener, Outcome[] out) {
    for (int i : which) {
      out[i] = timed(history, checks.get(i), checker);
      listener.done(out[i]);
    }
  }

  private static Outcome timed(History history, LevelPlan.Check c, Function<LevelPlan.Check, Checker> checker) {
    long start = System.nanoTime();
    CheckResult r;
    try {
      r = checker.apply(c).check(history);
    } catch (OutOfMemoryError e) {
      // the check's working set is unreachable from here on, so this small error can be made
      throw new CheckOutOfMemoryError(c, e);
    }
    return new Outcome(c, r, (System.nanoTime() - start) / 1_000_000, null);
  }

  /**
   * The heap ran out while a check ran: names the check (with two lanes, the other lane's working
   * set shares the heap, so the check named is where it ran out, not necessarily what filled it).
   */
  public static final class CheckOutOfMemoryError extends OutOfMemoryError {
    private static final long serialVersionUID = 1L;
    private final transient LevelPlan.Check check;

    CheckOutOfMemoryError(LevelPlan.Check check, OutOfMemoryError cause) {
      super("out of memory in the " + check.label() + " check");
      this.check = check;
      initCause(cause);
    }

    /** @return the check that was running when the heap ran out */
    public LevelPlan.Check check() {
      return check;
    }
  }
}
