package io.isowatch.connectors.jdbc;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

class RecordingDataSourceBuilderTest {
  @Test
  void privacyMustBeChosenAndTablesDeclared() {
    PGSimpleDataSource real = new PGSimpleDataSource();
    assertThatThrownBy(() -> RecordingDataSource.builder(real, "db", txn -> { }).table("t", "id", "v").build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("choose privacy: hashedWith(secret) to publish keyed hashes (the default way), or plaintext()");
    assertThatThrownBy(() -> RecordingDataSource.builder(real, "db", txn -> { }).plaintext().build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("declare at least one recorded table");
    assertThatThrownBy(() -> RecordingDataSource.builder(real, "db", txn -> { }).table("t", "id", "v").table("T", "k", "v"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("table T is declared twice");
    assertThatThrownBy(() -> RecordingDataSource.builder(real, "db", txn -> { }).table("t; drop", "id", "v"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("not a plain SQL identifier: 't; drop' (table t; drop)");
    assertThatThrownBy(() -> RecordingDataSource.builder(real, "db", txn -> { }).table("t", "id", "ID"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("table t: key and version columns are both id");
  }
}
