package io.isowatch.bench.process;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ProcessRunTest {
  @Test
  void isowatchSplitIsTheLoadAndTheSumOfTheLevels() {
    String out = "read-committed: CONSISTENT\n\n/tmp/h.plume (plume): 10,000 transactions, 80,000 operations,"
        + " 50 sessions, 9,984 keys; ms: load 369, read-committed 575, read-atomic 25\n";
    assertThat(ProcessRun.split(out)).containsExactly(369, 600);
  }

  @Test
  void awditSplitIsItsParsingAndCheckingLines() {
    assertThat(ProcessRun.split("Done parsing: 22ms\n\nConsistent.\nDone checking: 93ms\n")).containsExactly(22, 93);
  }

  @Test
  void outputWithoutTimesIsUnknown() {
    assertThat(ProcessRun.split("error: no such file\n")).containsExactly(-1, -1);
  }
}
