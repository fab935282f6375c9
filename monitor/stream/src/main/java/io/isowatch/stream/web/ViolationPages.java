package io.isowatch.stream.web;

import io.isowatch.report.HtmlPage;
import io.isowatch.report.WitnessView;
import io.isowatch.report.WitnessViews;
import io.isowatch.schemas.Violation;
import io.isowatch.schemas.WitnessEdge;
import io.isowatch.schemas.WitnessTransaction;
import io.isowatch.stream.metrics.MetricsEndpoint;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongSupplier;

/**
 * The violations page of the monitor's HTTP endpoint ({@link MetricsEndpoint} route {@value #PATH}):
 *
 * <ul>
 *   <li>{@code GET /violations[?history=H&level=L&anomaly=A]}: the {@link RecentViolations} that
 *       pass the filter (exact matches; an empty or absent parameter matches all), newest first, as
 *       a table (event time, the record's {@code detectedAt}, which is event time and not the wall
 *       clock (docs/monitoring.md); history, anomaly, weakest level broken, transactions, id), each id
 *       linking to its witness page; above it a form of the three filters;
 *   <li>{@code GET /violations/{id}}: that violation's witness, drawn by the same renderer as {@code
 *       isowatch check --report} ({@link HtmlPage#witness}); 404 when it is not among those kept.
 * </ul>
 *
 * Pages are self-contained HTML ({@link HtmlPage}); every value from a record is escaped.
 */
public final class ViolationPages implements MetricsEndpoint.Route {
  /** The route's path. */
  public static final String PATH = "/violations";
  private static final String HTML = "text/html; charset=utf-8";

  private final RecentViolations recent;
  private final String topic;
  private final LongSupplier unresolvedReads;

  /**
   * @param recent the violations kept
   * @param topic the violations topic they are read from, named on the page
   * @param unresolvedReads the reads this monitor gave up on as unresolved since it started ({@code
   *     isowatch_reads_unresolved_total}), shown under the table: they are not violations and are
   *     not on the topic
   */
  public ViolationPages(RecentViolations recent, String topic, LongSupplier unresolvedReads) {
    this.recent = recent;
    this.topic = topic;
    this.unresolvedReads = unresolvedReads;
  }

  @Override
  public MetricsEndpoint.Response handle(String path, String rawQuery) {
    if (path.equals(PATH) || path.equals(PATH + "/")) {
      return new MetricsEndpoint.Response(200, HTML, list(filter(rawQuery)));
    }
    String id = path.substring(PATH.length() + 1);
    Optional<Violation> v = recent.get(id);
    if (v.isEmpty()) {
      return new MetricsEndpoint.Response(404, HTML, new HtmlPage("isowatch: violation not found")
          .paragraph("No violation " + id + " among the last " + recent.capacity()
              + " this monitor has read from " + topic + ".")
          .link("all recent violations", PATH).html());
    }
    WitnessView view = WitnessViews.of(v.get());
    return new MetricsEndpoint.Response(200, HTML, new HtmlPage("isowatch: violation " + id)
        .link("all recent violations", PATH).legend().witness(view).html());
  }

  /** @return the page listing the kept violations that pass {@code f} */
  String list(RecentViolations.Filter f) {
    List<Violation> shown = recent.newestFirst(f);
    HtmlPage page = new HtmlPage("isowatch: recent violations");
    page.paragraph("Violations published on " + topic + ", newest first, as this monitor reads them (at start"
        + " it re-reads the last " + recent.capacity() + " offsets of each partition). The last "
        + recent.capacity() + " are kept in memory (" + recent.size() + " now, " + recent.received()
        + " read in all). Showing " + shown.size() + ". Event time: when the transaction that revealed"
        + " the violation ended, by the events' own clock (detectedAt), not when the monitor ran.");
    page.filterForm(PATH, List.of(
        new HtmlPage.Select("history", "history", recent.histories(), f.history()),
        new HtmlPage.Select("level", "weakest level broken", recent.levels(), f.level()),
        new HtmlPage.Select("anomaly", "anomaly", recent.anomalies(), f.anomaly())));
    List<List<HtmlPage.Cell>> rows = new ArrayList<>();
    for (Violation v : shown) {
      rows.add(List.of(HtmlPage.Cell.of(v.getDetectedAt().toString()), HtmlPage.Cell.of(v.getHistoryId()),
          HtmlPage.Cell.of(v.getAnomaly()), HtmlPage.Cell.of(WitnessViews.level(v)),
          HtmlPage.Cell.of(transactions(v)),
          new HtmlPage.Cell(v.getViolationId(), PATH + "/" + URLEncoder.encode(v.getViolationId(), StandardCharsets.UTF_8))));
    }
    page.table(List.of("event time", "history", "anomaly", "weakest level broken", "transactions", "witness"), rows);
    page.paragraph("Unresolved reads: " + unresolvedReads.getAsLong() + " since this monitor started. A read"
        + " whose writer had not arrived is given up on when a partition of the events topic stalls past the"
        + " read hold limit, or every partition goes idle, before all of them pass its end time plus the read"
        + " grace: the writer's absence is not established, so it is counted (isowatch_reads_unresolved_total),"
        + " not published (docs/monitoring.md, \"Reads of writers that have not arrived\").");
    return page.html();
  }

  /** @return the cycle's transactions ({@code T12 -> T13}), or the witness's transactions for other anomalies */
  private static String transactions(Violation v) {
    List<String> names = new ArrayList<>();
    List<WitnessEdge> edges = v.getWitness().getEdges();
    if (!edges.isEmpty()) {
      edges.forEach(e -> names.add(e.getFromTxnId()));
      return String.join(" -> ", names);
    }
    for (WitnessTransaction t : v.getWitness().getTransactions()) {
      names.add(t.getTxnId());
    }
    return String.join(", ", names);
  }

  /**
   * @param rawQuery {@code history=..&level=..&anomaly=..} percent-encoded (HTML form encoding),
   *     or {@code null}
   * @return the filter; empty values and unknown parameters are ignored, and so are malformed escapes
   */
  static RecentViolations.Filter filter(String rawQuery) {
    Map<String, String> params = new HashMap<>();
    if (rawQuery != null) {
      for (String pair : rawQuery.split("&")) {
        int eq = pair.indexOf('=');
        if (eq <= 0) {
          continue;
        }
        try {
          String name = URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8).toLowerCase(Locale.ROOT);
          String value = URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8).strip();
          if (!value.isEmpty()) {
            params.put(name, value);
          }
        } catch (IllegalArgumentException malformed) {
          // a bad %-escape: the parameter is ignored
        }
      }
    }
    return new RecentViolations.Filter(params.get("history"), params.get("level"), params.get("anomaly"));
  }
}
