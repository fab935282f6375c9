package io.isowatch.connectors.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SqlShapesTest {
  private static final RecordedTable DOCTORS = new RecordedTable("doctors", "id", "isowatch_version");
  private static final RecordedTable LISTS = RecordedTable.list("lists", "k", "v");
  private static final SqlShapes SHAPES = new SqlShapes(Map.of("doctors", DOCTORS, "lists", LISTS));

  @Test
  void selectsByKeyGetTheVersionColumnAppended() {
    assertThat(SHAPES.parse("SELECT on_call FROM doctors WHERE id = ?")).isEqualTo(new SqlShape.Read(
        DOCTORS, new SqlShape.Key(1, null), "SELECT on_call , isowatch_version FROM doctors WHERE id = ?"));
    assertThat(SHAPES.parse("select d.*, name AS n from public.\"doctors\" d where d.id = 42 for update;"))
        .isEqualTo(new SqlShape.Read(DOCTORS, new SqlShape.Key(0, "42"),
            "select d.*, name AS n , isowatch_version from public.\"doctors\" d where d.id = 42 for update;"));
    assertThat(SHAPES.parse("SELECT * FROM `doctors` WHERE id = 'a''b' LOCK IN SHARE MODE")).isEqualTo(
        new SqlShape.Read(DOCTORS, new SqlShape.Key(0, "a'b"),
            "SELECT * , isowatch_version FROM `doctors` WHERE id = 'a''b' LOCK IN SHARE MODE"));
  }

  @Test
  void updatesByKeySetTheTokenFirst() {
    SqlShape.Write w = (SqlShape.Write) SHAPES.parse("UPDATE doctors SET on_call = ?, shift = (? + 1) WHERE id = ?");
    assertThat(w).isEqualTo(new SqlShape.Write(DOCTORS, new SqlShape.Key(3, null),
        "UPDATE doctors SET isowatch_version = COALESCE(?, isowatch_version), on_call = ?, shift = (? + 1) WHERE id = ?",
        "UPDATE doctors SET isowatch_version = ", ", on_call = ?, shift = (? + 1) WHERE id = ?"));
    assertThat(w.withToken(77)).isEqualTo(
        "UPDATE doctors SET isowatch_version = 77, on_call = ?, shift = (? + 1) WHERE id = ?");
    assertThat(SHAPES.parse("update doctors as d set d.on_call = false where d.id = -5"))
        .isEqualTo(new SqlShape.Write(DOCTORS, new SqlShape.Key(0, "-5"),
            "update doctors as d set isowatch_version = COALESCE(?, isowatch_version), d.on_call = false where d.id = -5",
            "update doctors as d set isowatch_version = ", ", d.on_call = false where d.id = -5"));
  }

  @Test
  void singleRowInsertsGetTheVersionColumnFirst() {
    assertThat(SHAPES.parse("INSERT INTO doctors (name, id, on_call) VALUES (lower(?), ?, true)"))
        .isEqualTo(new SqlShape.Write(DOCTORS, new SqlShape.Key(2, null),
            "INSERT INTO doctors (isowatch_version, name, id, on_call) VALUES (?, lower(?), ?, true)",
            "INSERT INTO doctors (isowatch_version, name, id, on_call) VALUES (", ", lower(?), ?, true)"));
  }

  @Test
  void keysOfOneNumberHaveOneTextWhateverTheirType() {
    assertThat(SHAPES.parse("SELECT on_call FROM doctors WHERE id = 42.0")).isEqualTo(new SqlShape.Read(
        DOCTORS, new SqlShape.Key(0, "42"), "SELECT on_call , isowatch_version FROM doctors WHERE id = 42.0"));
    assertThat(List.of(42, 42L, (short) 42, 42.0, new BigDecimal("42.00"), new BigInteger("42"), "42"))
        .extracting(RecordedTable::keyText).containsOnly("42");
    assertThat(RecordedTable.keyText(new BigDecimal("0.00"))).isEqualTo("0");
    assertThat(RecordedTable.keyText(-1.5e10)).isEqualTo("-15000000000");
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "DELETE FROM doctors WHERE id = ?|delete",
      "SELECT count(*) FROM doctors WHERE id = ?|select",
      "SELECT DISTINCT on_call FROM doctors WHERE id = ?|select",
      "SELECT on_call FROM doctors WHERE id = ? AND on_call|select",
      "SELECT on_call FROM doctors WHERE id > ?|select",
      "SELECT on_call FROM doctors WHERE id = ? LIMIT 1|select",
      "SELECT d.on_call FROM doctors d JOIN wards w ON w.id = d.ward WHERE d.id = ?|select",
      "SELECT on_call FROM doctors WHERE id = 'a\\' OR 1=1 -- '|select",
      "UPDATE doctors SET isowatch_version = 1 WHERE id = ?|update",
      "UPDATE doctors SET id = 2 WHERE id = ?|update",
      "UPDATE doctors SET on_call = false|update",
      "UPDATE doctors SET on_call = WHERE id = 1|update",
      "UPDATE doctors SET on_call = false WHERE id IN (1, 2)|update",
      "INSERT INTO doctors (id, on_call) VALUES (1, true), (2, false)|insert",
      "INSERT INTO doctors (id, on_call) VALUES (?, ?) ON CONFLICT (id) DO NOTHING|insert",
      "INSERT INTO doctors (on_call) VALUES (true)|insert",
      "INSERT INTO doctors (id, isowatch_version) VALUES (1, 2)|insert",
      "INSERT INTO doctors SELECT * FROM old_doctors|insert",
      "WITH x AS (SELECT 1) UPDATE doctors SET on_call = false WHERE id = 1|with",
      "{call rotate(doctors)}|other"})
  void otherStatementsOnRecordedTablesAreUnrecorded(String sql, String reason) {
    assertThat(SHAPES.parse(sql)).isEqualTo(new SqlShape.Unrecorded(DOCTORS, reason));
  }

  @Test
  void statementsNotMentioningRecordedTablesAreOutside() {
    assertThat(SHAPES.parse("UPDATE nurses SET on_call = false WHERE id = ?")).isSameAs(SqlShape.OUTSIDE);
    assertThat(SHAPES.parse("SELECT 'doctors' FROM dual")).isSameAs(SqlShape.OUTSIDE);
  }

  @Test
  void theProbesAppendsToAListTableAreAppendsRunUnchanged() {
    assertThat(SHAPES.parse("UPDATE lists SET v = v || ',' || ? WHERE k = ?"))
        .isEqualTo(new SqlShape.Append(LISTS, new SqlShape.Key(2, null), new SqlShape.Key(1, null)));
    assertThat(SHAPES.parse("UPDATE lists SET v = CONCAT(v, ',', ?) WHERE k = ?"))
        .isEqualTo(new SqlShape.Append(LISTS, new SqlShape.Key(2, null), new SqlShape.Key(1, null)));
    assertThat(SHAPES.parse("update public.lists l set touched = now(), l.v = concat(l.v, ',', 17) where l.k = 'a';"))
        .isEqualTo(new SqlShape.Append(LISTS, new SqlShape.Key(0, "a"), new SqlShape.Key(0, "17")));
    assertThat(SHAPES.parse("INSERT INTO lists (k, v) VALUES (?, ?)"))
        .isEqualTo(new SqlShape.Append(LISTS, new SqlShape.Key(1, null), new SqlShape.Key(2, null)));
    assertThat(SHAPES.parse("INSERT INTO lists (v, note, k) VALUES ('3,5', lower(?), 9)"))
        .isEqualTo(new SqlShape.Append(LISTS, new SqlShape.Key(0, "9"), new SqlShape.Key(0, "3,5")));
  }

  @Test
  void aListTableIsReadWithTheListColumnAppended() {
    assertThat(SHAPES.parse("SELECT v FROM lists WHERE k = ?"))
        .isEqualTo(new SqlShape.Read(LISTS, new SqlShape.Key(1, null), "SELECT v , v FROM lists WHERE k = ?"));
  }

  @ParameterizedTest
  @CsvSource(delimiter = '#', quoteCharacter = '"', value = {
      "UPDATE lists SET v = ? WHERE k = ?#update",
      "UPDATE lists SET v = v || ? WHERE k = ?#update",
      "UPDATE lists SET v = v || ';' || ? WHERE k = ?#update",
      "UPDATE lists SET v = ? || ',' || v WHERE k = ?#update",
      "UPDATE lists SET v = v || ',' || ? || 'x' WHERE k = ?#update",
      "UPDATE lists SET v = CONCAT(v, ',', ?, ?) WHERE k = ?#update",
      "UPDATE lists SET v = v || ',' || ?, v = v || ',' || ? WHERE k = ?#update",
      "UPDATE lists SET note = ? WHERE k = ?#update",
      "UPDATE lists SET k = ?, v = v || ',' || ? WHERE k = ?#update",
      "INSERT INTO lists (k) VALUES (?)#insert",
      "INSERT INTO lists (k, v) VALUES (?, lower(?))#insert",
      "INSERT INTO lists (k, v) VALUES (?, ?), (?, ?)#insert",
  })
  void otherWritesOfAListTableAreNotUnderstood(String sql, String reason) {
    assertThat(SHAPES.parse(sql)).isEqualTo(new SqlShape.Unrecorded(LISTS, reason));
  }
}
