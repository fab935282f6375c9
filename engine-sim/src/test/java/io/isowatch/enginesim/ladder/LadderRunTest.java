package io.isowatch.enginesim.ladder;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.isowatch.checker.level.Anomaly;
import io.isowatch.checker.level.Verdict;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The ladder, every cell asserted: each rung sound over 150 seeded schedules of {@link
 * LadderRun#CONTENDED}, each admitting the anomaly the next rung forbids at a pinned seed, the commit
 * rates exact, and serializable committing at least 40% under this contention. The register rungs
 * (snapshot isolation and serializable on rw-register, decided by the polygraph) follow the ladder.
 */
class LadderRunTest {
  private static List<RungResult> ladder;

  @BeforeAll
  static void runTheLadder() {
    ladder = LadderRun.run(LadderRun.CONTENDED, LadderRun.DEFAULT_SCHEDULES, 0);
  }

  private static RungResult rung(Rung r) {
    return ladder.get(r.ordinal());
  }

  @Test
  void everyRungIsSoundOver150Schedules() {
    assertThat(ladder).extracting(RungResult::rung).containsExactly(Rung.values());
    for (RungResult r : ladder) {
      assertThat(r.schedules()).isEqualTo(150);
      assertThat(r.unsoundSchedules()).as("%s", r.rung()).isZero();
      assertThat(r.firstUnsound()).as("%s", r.rung()).isNull();
      assertThat(r.firstUnsoundSeed()).as("%s", r.rung()).isEqualTo(-1);
    }
  }

  @Test
  void readUncommittedAdmitsAnIntermediateRead() {
    assertThat(rung(Rung.RU)).isEqualTo(new RungResult(Rung.RU, 150, 0, null, -1, Anomaly.INTERMEDIATE_READ, 0, 130,
        3600, 3600));
  }

  @Test
  void readCommittedAdmitsAFracturedRead() {
    assertThat(rung(Rung.RC)).isEqualTo(new RungResult(Rung.RC, 150, 0, null, -1, Anomaly.COMMIT_ORDER_CYCLE, 0,
        148, 3600, 3600));
  }

  @Test
  void readAtomicAdmitsACausalityViolation() {
    assertThat(rung(Rung.RA)).isEqualTo(new RungResult(Rung.RA, 150, 0, null, -1, Anomaly.COMMIT_ORDER_CYCLE, 3, 7,
        3600, 3600));
  }

  @Test
  void causalAdmitsALostUpdate() {
    assertThat(rung(Rung.CC)).isEqualTo(new RungResult(Rung.CC, 150, 0, null, -1, Anomaly.LOST_UPDATE, 0, 85,
        3600, 3600));
  }

  @Test
  void snapshotIsolationAdmitsWriteSkew() {
    assertThat(rung(Rung.SI)).isEqualTo(new RungResult(Rung.SI, 150, 0, null, -1, Anomaly.G2_ITEM, 0, 123,
        1894, 3600));
  }

  @Test
  void serializableAdmitsNothingAndCommitsAtLeast40Percent() {
    assertThat(rung(Rung.SER)).isEqualTo(new RungResult(Rung.SER, 150, 0, null, -1, null, -1, 0, 1568, 3600));
    assertThat(rung(Rung.SER).commitPerMille()).isEqualTo(435).isGreaterThanOrEqualTo(400);
  }

  @Test
  void snapshotIsolationOnRegistersAdmitsWriteSkewFoundByThePolygraph() {
    assertThat(rung(Rung.SI_REGISTER)).isEqualTo(new RungResult(Rung.SI_REGISTER, 150, 0, null, -1, Anomaly.G2_ITEM,
        0, 121, 1894, 3600));
  }

  @Test
  void serializableOnRegistersAdmitsNothing() {
    assertThat(rung(Rung.SER_REGISTER)).isEqualTo(new RungResult(Rung.SER_REGISTER, 150, 0, null, -1, null, -1, 0,
        1568, 3600));
  }

  @Test
  void thePolygraphDecidesEveryRegisterScheduleAtTheRungsOwnLevel() {
    for (Rung r : new Rung[] {Rung.SI_REGISTER, Rung.SER_REGISTER}) {
      for (long seed = 0; seed < LadderRun.DEFAULT_SCHEDULES; seed++) {
        assertThat(r.soundnessChecker().check(LadderRun.history(r, LadderRun.CONTENDED, seed)).verdict())
            .as("%s seed %d", r, seed).isEqualTo(Verdict.CONSISTENT);
      }
    }
  }

  @Test
  void theMuseumPrintsOneLinePerRung() {
    String table = Museum.render(ladder);
    String[] lines = table.split(System.lineSeparator());
    assertThat(lines).hasSize(9);
    assertThat(lines[0]).startsWith("rung engine      workload     soundness");
    assertThat(lines[1].replaceAll(" +", " "))
        .isEqualTo("RU mvcc rw-register sound over 150 schedules admits G1b at seed 0 (130 of 150) 100.0% (3600 of 3600)");
    assertThat(lines[2].replaceAll(" +", " ")).isEqualTo("RC mvcc rw-register sound over 150 schedules admits"
        + " commit-order-cycle (fractured read) at seed 0 (148 of 150) 100.0% (3600 of 3600)");
    assertThat(lines[3].replaceAll(" +", " ")).isEqualTo("RA replicated rw-register sound over 150 schedules admits"
        + " commit-order-cycle (causality violation) at seed 3 (7 of 150) 100.0% (3600 of 3600)");
    assertThat(lines[4].replaceAll(" +", " ")).isEqualTo("CC replicated rw-register sound over 150 schedules admits"
        + " lost-update at seed 0 (85 of 150) 100.0% (3600 of 3600)");
    assertThat(lines[5].replaceAll(" +", " ")).isEqualTo("SI mvcc list-append sound over 150 schedules admits"
        + " G2-item at seed 0 (123 of 150) 52.6% (1894 of 3600)");
    assertThat(lines[6].replaceAll(" +", " ")).isEqualTo("SER mvcc list-append sound over 150 schedules admits"
        + " nothing (top of the ladder) 43.5% (1568 of 3600)");
    assertThat(lines[7].replaceAll(" +", " ")).isEqualTo("SI mvcc rw-register sound over 150 schedules admits"
        + " G2-item at seed 0 (121 of 150) 52.6% (1894 of 3600)");
    assertThat(lines[8].replaceAll(" +", " ")).isEqualTo("SER mvcc rw-register sound over 150 schedules admits"
        + " nothing (top of the ladder) 43.5% (1568 of 3600)");
  }

  @Test
  void noScheduleIsRefused() {
    assertThatThrownBy(() -> LadderRun.run(Rung.SER, LadderRun.CONTENDED, 0, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("schedules must be at least 1, was 0");
  }
}
