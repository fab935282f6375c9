package io.isowatch.schemas.debezium;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Decoding of Debezium's JSON envelope, with and without schema, and its errors. */
class JsonEnvelopesTest {
  private static final String PG_PAYLOAD = "{\"before\":null,\"after\":{\"k\":\"a\",\"v\":\",7\"},"
      + "\"source\":{\"version\":\"3.6.1.Final\",\"connector\":\"postgresql\",\"name\":\"isowatch_cdc\","
      + "\"db\":\"postgres\",\"schema\":\"public\",\"table\":\"isowatch_list_append\",\"txId\":771,"
      + "\"lsn\":24023128,\"xmin\":null,\"ts_ms\":1699999999999},\"op\":\"c\",\"ts_ms\":1700000000000,"
      + "\"transaction\":{\"id\":\"771:24023128\",\"total_order\":1,\"data_collection_order\":1}}";

  @Test
  void aPostgresChangeIsTheSameWithAndWithoutSchema() throws Exception {
    RowChange expected = new RowChange("postgresql", "771", "public.isowatch_list_append", "c", null,
        new ObjectMapper().readTree("{\"k\":\"a\",\"v\":\",7\"}"), 24023128L, null, 1_699_999_999_999_000L);
    assertThat(JsonEnvelopes.parse(PG_PAYLOAD)).contains(expected);
    assertThat(JsonEnvelopes.parse("{\"schema\":{\"type\":\"struct\"},\"payload\":" + PG_PAYLOAD + "}"))
        .contains(expected);
  }

  @Test
  void aPostgresChangeCarriesTheLastCommitLsnOfItsSequenceWhichOrdersTheChanges() throws Exception {
    String withSequence = PG_PAYLOAD.replace("\"xmin\":null", "\"sequence\":\"[\\\"24023100\\\",\\\"24023128\\\"]\",\"xmin\":null");
    RowChange first = (RowChange) JsonEnvelopes.parse(withSequence).orElseThrow();
    assertThat(first.lastCommitLsn()).isEqualTo(24_023_100L);
    assertThat(first.lsn()).isEqualTo(24_023_128L);
    RowChange sameTxnLater = new RowChange("postgresql", "771", "t", "c", null, null, 24_023_200L, null, 1L, 24_023_100L);
    RowChange nextTxnEarlierLsn = new RowChange("postgresql", "772", "t", "c", null, null, 24_023_110L, null, 1L,
        24_023_300L);
    assertThat(sameTxnLater.after(first)).isTrue();
    assertThat(nextTxnEarlierLsn.after(sameTxnLater)).isTrue();
    assertThat(first.after(first)).isFalse();
    assertThat(first.after(sameTxnLater)).isFalse();
    assertThat(((RowChange) JsonEnvelopes.parse(PG_PAYLOAD).orElseThrow()).lastCommitLsn()).isNull();
    assertThat(((RowChange) JsonEnvelopes.parse(PG_PAYLOAD.replace("\"xmin\":null",
        "\"sequence\":\"[null,\\\"24023128\\\"]\",\"xmin\":null")).orElseThrow()).lastCommitLsn()).isNull();
  }

  @Test
  void postgresMetadataIdsAreCutToTheirXidAndGtidsKept() throws Exception {
    assertThat(JsonEnvelopes.parse("{\"status\":\"END\",\"id\":\"771:24023400\",\"event_count\":3,"
        + "\"data_collections\":[],\"ts_ms\":1}")).contains(new TxBoundary("771", true, 3, Map.of()));
    assertThat(JsonEnvelopes.parse("{\"status\":\"BEGIN\",\"id\":\"0-1-42\",\"event_count\":null}"))
        .contains(new TxBoundary("0-1-42", false, 0, Map.of()));
  }

  @Test
  void anEndCountsTheChangesOfEachTable() throws Exception {
    TxBoundary end = (TxBoundary) JsonEnvelopes.parse("{\"status\":\"END\",\"id\":\"772:24023500\","
        + "\"event_count\":5,\"data_collections\":[{\"data_collection\":\"public.isowatch_list_append\","
        + "\"event_count\":2},{\"data_collection\":\"public.accounts\",\"event_count\":3}]}").orElseThrow();
    assertThat(end).isEqualTo(new TxBoundary("772", true, 5,
        Map.of("public.isowatch_list_append", 2L, "public.accounts", 3L)));
    assertThat(end.eventCountOf("isowatch_list_append")).isEqualTo(2);
    assertThat(end.eventCountOf("orders")).isEqualTo(0);
    assertThat(new TxBoundary("773", true, 4, Map.of()).eventCountOf("orders")).isEqualTo(4);
    assertThatThrownBy(() -> JsonEnvelopes.parse("{\"status\":\"END\",\"id\":\"774:1\",\"event_count\":1,"
        + "\"data_collections\":[{\"data_collection\":\"public.t\"}]}"))
        .isInstanceOf(EnvelopeException.class)
        .hasMessage("transaction metadata END of 774:1 has a data_collections entry without a data_collection"
            + " name and a numeric event_count");
  }

  @Test
  void tombstonesAreEmpty() throws Exception {
    assertThat(JsonEnvelopes.parse(null)).isEqualTo(Optional.empty());
    assertThat(JsonEnvelopes.parse("null")).isEqualTo(Optional.empty());
    assertThat(JsonEnvelopes.parse("{\"schema\":null,\"payload\":null}")).isEqualTo(Optional.empty());
  }

  @Test
  void malformedEventsAreRefusedWithTheirReason() {
    assertThatThrownBy(() -> JsonEnvelopes.parse("{\"op\":"))
        .isInstanceOf(EnvelopeException.class).hasMessageStartingWith("not JSON: ");
    assertThatThrownBy(() -> JsonEnvelopes.parse("{\"status\":\"END\",\"id\":\"5:6\",\"event_count\":null}"))
        .hasMessage("transaction metadata END of 5:6 has no numeric event_count");
    assertThatThrownBy(() -> JsonEnvelopes.parse("{\"status\":\"COMMIT\",\"id\":\"5:6\"}"))
        .hasMessage("transaction metadata status is 'COMMIT', not BEGIN or END");
    assertThatThrownBy(() -> JsonEnvelopes.parse("{\"op\":\"c\",\"after\":{}}"))
        .hasMessage("change event has no source");
    assertThatThrownBy(() -> JsonEnvelopes.parse(PG_PAYLOAD.replace("\"txId\":771,", "")))
        .hasMessage("change event has no source.txId");
    assertThatThrownBy(() -> JsonEnvelopes.parse(PG_PAYLOAD.replace("postgresql", "sqlserver")))
        .hasMessage("source.connector 'sqlserver' is not supported (postgresql, mysql, mariadb)");
    assertThatThrownBy(() -> JsonEnvelopes.parse("[1]")).hasMessage("payload is not a JSON object");
  }
}
