package io.isowatch.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.List;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;

/** {@code isowatch check --json} parsed back and compared field by field. */
class JsonReportTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  @Test
  void causalViolationAsJson() throws IOException {
    String file = CliRun.sample("causal-violation.jsonl").toString();
    CliRun run = CliRun.of("check", "--json", file);
    assertThat(run.exitCode()).isEqualTo(ExitCode.VIOLATION);
    assertThat(run.err()).isEmpty();
    JsonNode root = MAPPER.readTree(run.out());
    assertThat(fieldNames(root)).containsExactly("file", "format", "levels", "stats");
    assertThat(root.get("file").asText()).isEqualTo(file);
    assertThat(root.get("format").asText()).isEqualTo("jsonl");

    JsonNode levels = root.get("levels");
    assertThat(levels.size()).isEqualTo(3);
    assertThat(MAPPER.readTree("[" + levels.get(0) + "," + levels.get(1) + "]")).isEqualTo(MAPPER.readTree(
        "[{\"level\":\"read-committed\",\"model\":\"axiomatic\",\"verdict\":\"CONSISTENT\",\"consistent\":true,\"violations\":[]},"
            + "{\"level\":\"read-atomic\",\"model\":\"axiomatic\",\"verdict\":\"CONSISTENT\",\"consistent\":true,\"violations\":[]}]"));
    JsonNode causal = levels.get(2);
    assertThat(causal.get("level").asText()).isEqualTo("causal");
    assertThat(causal.get("verdict").asText()).isEqualTo("VIOLATED");
    assertThat(causal.get("consistent").asBoolean()).isFalse();
    assertThat(causal.get("violations").size()).isEqualTo(1);

    JsonNode v = causal.get("violations").get(0);
    assertThat(v.get("kind").asText()).isEqualTo("commit-order-cycle");
    assertThat(v.get("weakestLevelBroken").asText()).isEqualTo("causal");
    assertThat(v.get("explanation").asText())
        .isEqualTo("cycle T1 -> T2 -> T1 (2 edges, 1 inferred commit order)");
    JsonNode witness = v.get("witness");
    assertThat(witness.get("transactions")).isEqualTo(MAPPER.readTree(
        "[{\"label\":\"T1\",\"session\":\"alice\",\"status\":\"committed\","
            + "\"ops\":[{\"kind\":\"w\",\"key\":\"post\",\"value\":1}]},"
            + "{\"label\":\"T2\",\"session\":\"alice\",\"status\":\"committed\","
            + "\"ops\":[{\"kind\":\"w\",\"key\":\"post\",\"value\":2}]},"
            + "{\"label\":\"T4\",\"session\":\"carol\",\"status\":\"committed\","
            + "\"ops\":[{\"kind\":\"r\",\"key\":\"reply\",\"value\":3},"
            + "{\"kind\":\"r\",\"key\":\"post\",\"value\":1}]},"
            + "{\"label\":\"T3\",\"session\":\"bob\",\"status\":\"committed\","
            + "\"ops\":[{\"kind\":\"r\",\"key\":\"post\",\"value\":2},"
            + "{\"kind\":\"w\",\"key\":\"reply\",\"value\":3}]}]"));
    assertThat(witness.get("support")).isEqualTo(MAPPER.readTree(
        "[{\"from\":\"T2\",\"to\":\"T3\",\"type\":\"wr\",\"because\":\"reads-from\","
            + "\"key\":\"post\",\"value\":2,\"via\":null,\"explanation\":\"T3 read post = 2 from T2\"},"
            + "{\"from\":\"T3\",\"to\":\"T4\",\"type\":\"wr\",\"because\":\"reads-from\","
            + "\"key\":\"reply\",\"value\":3,\"via\":null,\"explanation\":\"T4 read reply = 3 from T3\"}]"));
    assertThat(witness.get("operations")).isEqualTo(MAPPER.readTree("[]"));
    assertThat(witness.get("edges")).isEqualTo(MAPPER.readTree(
        "[{\"from\":\"T1\",\"to\":\"T2\",\"type\":\"so\",\"because\":\"session-order\","
            + "\"key\":null,\"value\":null,\"via\":null,"
            + "\"explanation\":\"T1 precedes T2 in session alice\"},"
            + "{\"from\":\"T2\",\"to\":\"T1\",\"type\":\"co\",\"because\":\"causal-past\","
            + "\"key\":\"post\",\"value\":null,\"via\":\"T4\",\"explanation\":\"T2 precedes T1 in"
            + " commit order because T2 is in T4's causal past and writes post, and T4 read post"
            + " from T1\"}]"));

    JsonNode stats = root.get("stats");
    assertThat(fieldNames(stats)).containsExactly("transactions", "operations", "sessions", "keys", "ms");
    assertThat(List.of(stats.get("transactions").asInt(), stats.get("operations").asInt(),
        stats.get("sessions").asInt(), stats.get("keys").asInt())).containsExactly(4, 6, 3, 2);
    assertThat(fieldNames(stats.get("ms")))
        .containsExactly("load", "read-committed", "read-atomic", "causal", "read-uncommitted (supporting)");
  }

  @Test
  void basicAxiomViolationListsItsOperations() throws IOException {
    CliRun run = CliRun.of("check", "--json", "--level", "read-atomic",
        CliRun.sample("read-committed-violation.jsonl").toString());
    JsonNode v = MAPPER.readTree(run.out()).get("levels").get(0).get("violations").get(0);
    assertThat(v.get("kind").asText()).isEqualTo("non-repeatable-read");
    assertThat(v.get("weakestLevelBroken").asText()).isEqualTo("read-atomic");
    assertThat(v.get("explanation").asText())
        .isEqualTo("T3 read x twice with different results: x = 2 from T2, then x = 1 from T1");
    assertThat(v.get("witness").get("operations")).isEqualTo(MAPPER.readTree(
        "[{\"kind\":\"r\",\"key\":\"x\",\"value\":2,\"txn\":\"T3\"},"
            + "{\"kind\":\"r\",\"key\":\"x\",\"value\":1,\"txn\":\"T3\"}]"));
    assertThat(v.get("witness").get("edges")).isEqualTo(MAPPER.readTree("[]"));
  }

  private static List<String> fieldNames(JsonNode node) {
    return StreamSupport.stream(((Iterable<String>) node::fieldNames).spliterator(), false).toList();
  }
}
