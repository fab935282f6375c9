package io.isowatch.stream.web;

import static org.assertj.core.api.Assertions.assertThat;

import io.isowatch.schemas.EdgeType;
import io.isowatch.schemas.Level;
import io.isowatch.schemas.OpKind;
import io.isowatch.schemas.Operation;
import io.isowatch.schemas.TxnStatus;
import io.isowatch.schemas.Violation;
import io.isowatch.schemas.Window;
import io.isowatch.schemas.Witness;
import io.isowatch.schemas.WitnessEdge;
import io.isowatch.schemas.WitnessTransaction;
import io.isowatch.stream.metrics.MetricsEndpoint;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.junit.jupiter.api.Test;

/** The violations kept in memory and their pages, served over real HTTP. */
class ViolationPagesTest {
  private final HttpClient http = HttpClient.newHttpClient();

  /** A G2-item of two transactions in {@code history}, detected at second {@code at}. */
  static Violation skew(String history, String id, int at, String a, String b) {
    List<Operation> ra = List.of(new Operation(OpKind.READ, "x", List.of()), new Operation(OpKind.READ, "y", List.of()));
    return new Violation(history, id, Instant.ofEpochSecond(at), Level.SERIALIZABLE, "G2-item",
        new Witness(List.of(
            new WitnessTransaction(a, "s1", TxnStatus.COMMITTED,
                List.of(ra.get(0), ra.get(1), new Operation(OpKind.APPEND, "x", 1L))),
            new WitnessTransaction(b, "s2", TxnStatus.COMMITTED,
                List.of(ra.get(0), ra.get(1), new Operation(OpKind.APPEND, "y", 2L)))),
            List.of(new WitnessEdge(a, b, EdgeType.RW, "y", 2L, a + " read y = [] and so did not see " + b + "'s append of 2"),
                new WitnessEdge(b, a, EdgeType.RW, "x", 1L, b + " read x = [] and so did not see " + a + "'s append of 1")), List.of()),
        new Window(Instant.ofEpochSecond(0), Instant.ofEpochSecond(at), 10L), "cycle " + a + " -> " + b + " -> " + a + " (2 edges)");
  }

  /** A G1a in {@code history}: no cycle. */
  static Violation abortedRead(String history, String id, int at) {
    return new Violation(history, id, Instant.ofEpochSecond(at), Level.READ_COMMITTED, "G1a",
        new Witness(List.of(
            new WitnessTransaction("T9", "s2", TxnStatus.COMMITTED, List.of(new Operation(OpKind.READ, "x", 1L))),
            new WitnessTransaction("T8", "s1", TxnStatus.ABORTED, List.of(new Operation(OpKind.WRITE, "x", 1L)))),
            List.of(), List.of()),
        new Window(Instant.ofEpochSecond(0), Instant.ofEpochSecond(at), 3L), "T9 read x = 1 from T8, which aborted");
  }

  @Test
  void keepsTheLastNNewestFirstAndAReadAgainReplacesItsCopy() {
    RecentViolations recent = new RecentViolations(3);
    recent.add(skew("h1", "a", 1, "T1", "T2"));
    recent.add(abortedRead("h2", "b", 2));
    recent.add(skew("h2", "c", 3, "T3", "T4"));
    recent.add(skew("h1", "a", 1, "T1", "T2"));
    assertThat(ids(recent.newestFirst(RecentViolations.Filter.ALL))).containsExactly("a", "c", "b");
    recent.add(skew("h3", "d", 4, "T5", "T6"));
    assertThat(ids(recent.newestFirst(RecentViolations.Filter.ALL))).containsExactly("d", "a", "c");
    assertThat(recent.received()).isEqualTo(5);
    assertThat(recent.size()).isEqualTo(3);
    assertThat(recent.get("b")).isEmpty();
    assertThat(ids(recent.newestFirst(new RecentViolations.Filter("h1", null, null)))).containsExactly("a");
    assertThat(ids(recent.newestFirst(new RecentViolations.Filter(null, "serializable", "G2-item"))))
        .containsExactly("d", "a", "c");
    assertThat(ids(recent.newestFirst(new RecentViolations.Filter("h2", "read-committed", null)))).isEmpty();
    assertThat(recent.histories()).containsExactly("h1", "h2", "h3");
    assertThat(recent.levels()).containsExactly("serializable");
  }

  @Test
  void filtersComeFromTheQueryAndMalformedOnesAreIgnored() {
    assertThat(ViolationPages.filter(null)).isEqualTo(RecentViolations.Filter.ALL);
    assertThat(ViolationPages.filter("history=orders+db&level=&anomaly=G2-item&x=1"))
        .isEqualTo(new RecentViolations.Filter("orders db", null, "G2-item"));
    assertThat(ViolationPages.filter("history=%zz&level=read-committed&=3&anomaly"))
        .isEqualTo(new RecentViolations.Filter(null, "read-committed", null));
  }

  @Test
  void listsFiltersAndLinksEachWitnessPage() throws Exception {
    RecentViolations recent = new RecentViolations(RecentViolations.DEFAULT_CAPACITY);
    recent.add(skew("h1", "id-1", 1, "T1", "T2"));
    recent.add(abortedRead("h2", "id-2", 2));
    recent.add(skew("h2<i>", "id-3", 3, "T<script>", "T4"));
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    try (MetricsEndpoint endpoint = MetricsEndpoint.start(registry, "127.0.0.1", 0, Optional.empty(),
        Map.of(ViolationPages.PATH, new ViolationPages(recent, "isowatch.violations", () -> 3)))) {
      Document all = page(endpoint, "/violations");
      assertThat(all.select("p").first().text()).isEqualTo("Violations published on isowatch.violations, newest"
          + " first, as this monitor reads them (at start it re-reads the last 1000 offsets of each partition)."
          + " The last 1000 are kept in memory (3 now, 3 read in all). Showing 3. Event time: when the"
          + " transaction that revealed the violation ended, by the events' own clock (detectedAt), not when"
          + " the monitor ran.");
      assertThat(all.select("p").last().text()).startsWith("Unresolved reads: 3 since this monitor started.");
      assertThat(all.select("thead th").eachText()).containsExactly(
          "event time", "history", "anomaly", "weakest level broken", "transactions", "witness");
      assertThat(all.select("tbody tr").eachText()).containsExactly(
          "1970-01-01T00:00:03Z h2<i> G2-item serializable T<script> -> T4 id-3",
          "1970-01-01T00:00:02Z h2 G1a read-committed T9, T8 id-2",
          "1970-01-01T00:00:01Z h1 G2-item serializable T1 -> T2 id-1");
      assertThat(all.select("tbody a").eachAttr("href"))
          .containsExactly("/violations/id-3", "/violations/id-2", "/violations/id-1");
      assertThat(all.select("select[name=history] option").eachAttr("value")).containsExactly("", "h1", "h2", "h2<i>");
      assertThat(all.select("script, i")).isEmpty();

      Document filtered = page(endpoint, "/violations?history=h2&level=read-committed&anomaly=");
      assertThat(filtered.select("tbody tr").eachText()).containsExactly(
          "1970-01-01T00:00:02Z h2 G1a read-committed T9, T8 id-2");
      assertThat(filtered.select("select[name=history] option[selected]").eachAttr("value")).containsExactly("h2");
      assertThat(page(endpoint, "/violations?anomaly=G2-item&history=h2%3Ci%3E").select("tbody tr").eachText())
          .containsExactly("1970-01-01T00:00:03Z h2<i> G2-item serializable T<script> -> T4 id-3");

      Document witness = page(endpoint, "/violations/id-3");
      assertThat(witness.title()).isEqualTo("isowatch: violation id-3");
      assertThat(witness.select("section.witness h2").text())
          .isEqualTo("G2-item in history h2<i> (weakest level broken: serializable)");
      assertThat(witness.select("p.summary").text()).isEqualTo("cycle T<script> -> T4 -> T<script> (2 edges)");
      assertThat(witness.text()).contains("found at event time 1970-01-01T00:00:03Z");
      assertThat(witness.select("svg g.edge-label text").eachText()).containsExactly("rw y=2", "rw x=1");
      assertThat(witness.select("ul.txns li").eachText()).containsExactly(
          "T<script> (session s1): r(x)=[] r(y)=[] append(x,1)", "T4 (session s2): r(x)=[] r(y)=[] append(y,2)");
      assertThat(witness.select("script")).isEmpty();

      HttpResponse<String> missing = get(endpoint, "/violations/nope");
      assertThat(missing.statusCode()).isEqualTo(404);
      assertThat(Jsoup.parse(missing.body()).select("p").first().text())
          .isEqualTo("No violation nope among the last 1000 this monitor has read from isowatch.violations.");
    }
  }

  private Document page(MetricsEndpoint endpoint, String path) throws Exception {
    HttpResponse<String> r = get(endpoint, path);
    assertThat(r.statusCode()).as(path).isEqualTo(200);
    assertThat(r.headers().firstValue("Content-Type")).hasValue("text/html; charset=utf-8");
    return Jsoup.parse(r.body());
  }

  private HttpResponse<String> get(MetricsEndpoint endpoint, String path) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + endpoint.port() + path)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static List<String> ids(List<Violation> vs) {
    return vs.stream().map(Violation::getViolationId).toList();
  }
}
