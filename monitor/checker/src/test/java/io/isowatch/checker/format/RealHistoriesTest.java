package io.isowatch.checker.format;

import static org.assertj.core.api.Assertions.assertThat;

import io.isowatch.checker.history.History;
import io.isowatch.checker.history.SharedHistories;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every real history in {@code ../shared/histories/real} (folder from the system property {@code
 * isowatch.shared.histories}, set by surefire) is detected and loads with exact counts. The counts
 * were cross-checked with independent scripts over the raw files (line counts and distinct
 * sessions, transactions and keys for Plume; a byte-level walk for dbcop and Cobra).
 */
class RealHistoriesTest {
  static Stream<Arguments> histories() {
    return Stream.of(
        Arguments.of("mariadb-galera-lost-update.plume.txt", HistoryFormat.PLUME,
            "txns=7 ops=14 sessions=2 keys=1 committed=7 aborted=0 unknown=0"),
        Arguments.of("dgraph-causal.plume.txt", HistoryFormat.PLUME,
            "txns=481 ops=10600 sessions=11 keys=1000 committed=481 aborted=0 unknown=0"),
        Arguments.of("antidote.plume.txt", HistoryFormat.PLUME,
            "txns=120 ops=2400 sessions=6 keys=5 committed=120 aborted=0 unknown=0"),
        Arguments.of("dgraph-dbcop", HistoryFormat.DBCOP,
            "txns=800 ops=16000 sessions=10 keys=1000 committed=480 aborted=320 unknown=0"),
        Arguments.of("cockroach-blog.cobra", HistoryFormat.COBRA,
            "txns=21 ops=21 sessions=13 keys=3 committed=21 aborted=0 unknown=0"),
        Arguments.of("elle-paper-example.edn", HistoryFormat.EDN,
            "txns=4 ops=19 sessions=4 keys=4 committed=4 aborted=0 unknown=0"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("histories")
  void loadsWithExactCounts(String name, HistoryFormat format, String counts) throws Exception {
    Path path = SharedHistories.real(name);
    assertThat(HistoryFiles.detect(path)).isEqualTo(format);
    History h = HistoryFiles.read(path, null, null);
    assertThat(HistoryText.summary(h)).isEqualTo(counts);
  }
}
