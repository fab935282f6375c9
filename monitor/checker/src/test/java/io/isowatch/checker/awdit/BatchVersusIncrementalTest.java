package io.isowatch.checker.awdit;

import static org.assertj.core.api.Assertions.assertThat;

import io.isowatch.checker.history.History;
import io.isowatch.checker.history.OpKind;
import io.isowatch.checker.level.Level;
import io.isowatch.checker.reference.PermissiveHistories;
import io.isowatch.checker.witness.CheckResult;
import io.isowatch.checker.witness.Violation;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@link IncrementalChecker} agrees with the batch checker of its level on {@link SeedRuns#TRIES}
 * permissive histories: same verdict and same set of anomaly kinds, whether transactions arrive in
 * history order or in a random order consistent with session order (so that reads often arrive
 * before their writer and are held back). Each transaction is appended to the shared history and
 * accepted right after it ends; {@link IncrementalChecker#finish()} closes the run.
 *
 * <p>Equality holds on histories where no transaction of unknown outcome is read from. Where one
 * is ({@link PermissiveHistories#hasReadUnknownOutcome}), the incremental checker counts it as
 * committed only from its first counted reader's arrival on (a transaction processed before, the
 * writer itself included, used it as uncommitted), so there the incremental
 * checker may find less than the batch checker: its verdict and anomaly kinds within the batch's,
 * never more.
 */
class BatchVersusIncrementalTest {
  @ParameterizedTest
  @EnumSource(value = Level.class, names = {"READ_COMMITTED", "READ_ATOMIC", "CAUSAL"})
  void incrementalInHistoryOrderAgreesWithBatch(Level level) {
    SeedRuns.Outcome outcome = SeedRuns.run(h -> compare(h, level, historyOrder(h)));
    assertThat(outcome.failing()).withFailMessage("%s", outcome).isEqualTo(0);
  }

  @ParameterizedTest
  @EnumSource(value = Level.class, names = {"READ_COMMITTED", "READ_ATOMIC", "CAUSAL"})
  void incrementalInShuffledSessionOrderAgreesWithBatch(Level level) {
    SeedRuns.Outcome outcome = SeedRuns.run(h -> compare(h, level, shuffled(h)));
    assertThat(outcome.failing()).withFailMessage("%s", outcome).isEqualTo(0);
  }

  /**
   * @return how the incremental checker fed {@code order} disagrees with the batch checker on
   *     {@code h} (see the class comment), or {@code null}
   */
  static String compare(History h, Level level, IntArrayList order) {
    CheckResult batch = FastVersusReferenceTest.fast(level).check(h);
    CheckResult incremental = incremental(h, level, order);
    return PermissiveHistories.hasReadUnknownOutcome(h)
        ? SeedRuns.excess("batch", batch, "incremental", incremental)
        : SeedRuns.difference("batch", batch, "incremental", incremental);
  }

  static IntArrayList historyOrder(History h) {
    IntArrayList order = new IntArrayList();
    for (int t = 0; t < h.txnCount(); t++) {
      order.add(t);
    }
    return order;
  }

  /** @return every transaction once, each session's in session order, sessions interleaved at random */
  private static IntArrayList shuffled(History h) {
    SplittableRandom rnd = new SplittableRandom(h.txnCount() * 31L + h.opCount());
    int[] next = new int[h.sessionCount()];
    IntArrayList order = new IntArrayList();
    while (order.size() < h.txnCount()) {
      int s = rnd.nextInt(h.sessionCount());
      if (next[s] < h.sessionTxns(s).size()) {
        order.add(h.sessionTxns(s).getInt(next[s]++));
      }
    }
    return order;
  }

  /**
   * Copies the transactions of {@code source} in {@code order} into a fresh shared history (keys
   * keep their ids, so witnesses can be checked against {@code source}), accepting each.
   */
  static CheckResult incremental(History source, Level level, IntArrayList order) {
    History h = new History();
    for (int k = 0; k < source.keyCount(); k++) {
      h.key(source.keyName(k));
    }
    IncrementalChecker checker = new IncrementalChecker(h, level);
    List<Violation> out = new ArrayList<>();
    for (int t : order) {
      out.addAll(checker.accept(copy(source, t, h)));
    }
    out.addAll(checker.finish());
    return CheckResult.of(level, out);
  }

  private static int copy(History source, int t, History h) {
    h.beginTxn(h.session(source.sessionName(source.sessionOf(t))), source.label(t));
    for (int op = source.opStart(t); op < source.opEnd(t); op++) {
      int key = h.key(source.keyName(source.opKey(op)));
      byte kind = source.opKind(op);
      if (kind == OpKind.READ) {
        h.read(key, source.opValue(op));
      } else if (kind == OpKind.WRITE) {
        h.write(key, source.opValue(op));
      } else if (kind == OpKind.APPEND) {
        h.append(key, source.opValue(op));
      } else if (!source.listKnown(op)) {
        h.readListUnknown(key);
      } else {
        long[] list = new long[source.listLength(op)];
        for (int i = 0; i < list.length; i++) {
          list[i] = source.listElement(op, i);
        }
        h.readList(key, list, 0, list.length);
      }
    }
    return h.end(source.status(t));
  }
}
