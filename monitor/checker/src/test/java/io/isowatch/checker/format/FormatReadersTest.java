package io.isowatch.checker.format;

import static org.assertj.core.api.Assertions.assertThat;

import io.isowatch.checker.awdit.CcChecker;
import io.isowatch.checker.awdit.RaChecker;
import io.isowatch.checker.awdit.RcChecker;
import io.isowatch.checker.history.History;
import io.isowatch.checker.level.Verdict;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Each reader on a small hand-written file (src/test/resources/formats), compared operation by
 * operation through {@link HistoryText}, with the progress it reports.
 */
class FormatReadersTest {
  private final List<Long> progress = new ArrayList<>();

  private String read(String resource, HistoryFormat format) throws Exception {
    History h = HistoryFiles.read(Resources.path(resource), format, progress::add);
    return HistoryText.render(h);
  }

  @Test
  void plumeGroupsInterleavedSessionsAndAbortedRuns() throws Exception {
    assertThat(read("sample.plume.txt", HistoryFormat.PLUME)).isEqualTo(""
        + "1 T10: w 1 5, r 1 5\n"
        + "2 T20: r 2 _, w 1 6\n"
        + "1 T-5: w 2 7, r 1 6 | aborted\n"
        + "2 T21: r 2 7\n"
        + "1 T11: w 2 8\n"
        + "2 T-9: w 2 9 | aborted\n");
    assertThat(progress).containsExactly(108L);
  }

  /**
   * Transaction 0 of session 0 writing 0 (PolySI's and IsoVista's explicit initial state) is the
   * initial state: dropped, and the verdicts of every axiomatic level are those of the file without
   * it (which is what AWDIT answers: it reads 0 from its own initial transaction, so the explicit
   * one, never read from, is on no cycle).
   */
  @Test
  void plumeExplicitInitialTransactionIsTheInitialState() throws Exception {
    assertThat(read("initial-state.plume.txt", HistoryFormat.PLUME)).isEqualTo(""
        + "1 T1: w 1 1, w 2 1\n"
        + "2 T2: r 2 _, r 1 1\n");
    History h = HistoryFiles.read(Resources.path("initial-state.plume.txt"), HistoryFormat.PLUME, progress::add);
    assertThat(List.of(new RcChecker().check(h).verdict(), new RaChecker().check(h).verdict(),
        new CcChecker().check(h).verdict()))
        .containsExactly(Verdict.CONSISTENT, Verdict.VIOLATED, Verdict.VIOLATED);
  }

  @Test
  void awditSplitsSessionsAndTransactionsAndKeepsValueZero() throws Exception {
    assertThat(read("sample.awdit.txt", HistoryFormat.AWDIT)).isEqualTo(""
        + "1 T1: w 0 0, w 1 0\n"
        + "2 T4: w 0 1\n"
        + "2 T6: r 0 1, r 1 0\n"
        + "3 T11: r 1 0, r 0 0\n");
    assertThat(progress).containsExactly(67L);
  }

  @Test
  void ednListAppendMapsTypesProcessesAndNilReads() throws Exception {
    assertThat(read("list-append.edn", HistoryFormat.EDN)).isEqualTo(""
        + "0 T1: a x 1, r y []\n"
        + "1 T3: r x [?], a y 2 | unknown\n"
        + "2 T5: a x 3 | aborted\n"
        + "0 T7: r x [1], r y [2]\n");
  }

  @Test
  void ednRegisterWithoutProcessGivesEachTransactionItsOwnSession() throws Exception {
    assertThat(read("rw-register.edn", HistoryFormat.EDN)).isEqualTo(""
        + "T1 T1: w 1 10, r 2 _\n"
        + "T2 T2: w 2 20, r 1 ? | aborted\n"
        + "T4 T4: r 1 10, r 2 _\n");
  }

  @Test
  void jsonLinesReadsEveryOperationKind() throws Exception {
    assertThat(read("sample.jsonl", HistoryFormat.JSONL)).isEqualTo(""
        + "s1 T7: w x 1, r x _, a k 5, r k [1 2]\n"
        + "s2 T2: r x ?, r k [], r k [?] | unknown\n"
        + "s1 T9: | aborted\n");
    assertThat(progress).containsExactly(366L);
  }

  @Test
  void dbcopSkipsFailedEventsAndAbortsFailedTransactions() throws Exception {
    assertThat(read("sample.dbcop", HistoryFormat.DBCOP)).isEqualTo(""
        + "1 T1: w 1 1, r 2 _\n"
        + "1 T2: w 2 1 | aborted\n"
        + "2 T3: r 1 1, r 2 1\n");
    assertThat(progress).containsExactly(277L);
  }

  @Test
  void cobraUsesWriteIdsAsValuesAndMagicIdsAsInitial() throws Exception {
    assertThat(read("sample.cobra", HistoryFormat.COBRA)).isEqualTo(""
        + "c1 T100: w 10 16, r 11 _\n"
        + "c1 T101: r 10 16 | unknown\n"
        + "c2 T200: r 10 _, w 11 32\n");
    assertThat(progress).containsExactly(118L, 194L);
  }
}
