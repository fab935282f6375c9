package io.isowatch.report;

import static io.isowatch.checker.witness.EdgeType.RW;
import static io.isowatch.checker.witness.EdgeType.SO;
import static io.isowatch.checker.witness.EdgeType.WR;
import static io.isowatch.checker.witness.EdgeType.WW;
import static org.assertj.core.api.Assertions.assertThat;

import io.isowatch.checker.Checkers;
import io.isowatch.checker.finding.Finding;
import io.isowatch.checker.history.History;
import io.isowatch.checker.history.TxnStatus;
import io.isowatch.checker.level.Anomaly;
import io.isowatch.checker.level.Level;
import io.isowatch.checker.witness.Because;
import io.isowatch.checker.witness.CheckResult;
import io.isowatch.schemas.EdgeType;
import io.isowatch.schemas.OpKind;
import io.isowatch.schemas.Operation;
import io.isowatch.schemas.Window;
import io.isowatch.schemas.Witness;
import io.isowatch.schemas.WitnessEdge;
import io.isowatch.schemas.WitnessTransaction;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Attribute;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.Test;

/**
 * The one witness renderer: views from the checker and from published records, the HTML page (parsed
 * back with jsoup: hostile keys, sessions and ids stay text), the DOT graph, and the layout's
 * geometry.
 */
class WitnessPicturesTest {
  /** A key and a session name that would be markup if written raw. */
  static final String KEY = "<b>y</b>\"'&";
  static final String SESSION = "s2<script>alert(1)</script>";

  /**
   * A write skew on list-append (Adya's G2-item): T1 and T2 read x and KEY empty, T1 appends 1 to
   * x, T2 appends 2 to KEY; T3 then reads both appends.
   */
  static History writeSkew() {
    History h = new History();
    int x = h.key("x");
    int y = h.key(KEY);
    long[] none = {};
    h.beginTxn(h.session("s1"), 1);
    h.readList(x, none, 0, 0);
    h.readList(y, none, 0, 0);
    h.append(x, 1);
    h.end(TxnStatus.COMMITTED);
    h.beginTxn(h.session(SESSION), 2);
    h.readList(x, none, 0, 0);
    h.readList(y, none, 0, 0);
    h.append(y, 2);
    h.end(TxnStatus.COMMITTED);
    h.beginTxn(h.session("s3"), 3);
    h.readList(x, new long[] {1}, 0, 1);
    h.readList(y, new long[] {2}, 0, 1);
    h.end(TxnStatus.COMMITTED);
    return h;
  }

  static WitnessView writeSkewView() {
    History h = writeSkew();
    CheckResult r = Checkers.adya(Level.SERIALIZABLE, true).check(h);
    assertThat(r.violations()).hasSize(1);
    return WitnessViews.of(h, r.violations().get(0), "v1", "G2-item title");
  }

  @Test
  void aCheckerViolationBecomesItsTransactionsEdgesAndSentences() {
    WitnessView expected = new WitnessView("v1", "G2-item title", List.of(), new Finding(Anomaly.G2_ITEM,
        Level.SERIALIZABLE, "cycle T1 -> T2 -> T1 (2 edges)",
        List.of(
            new Finding.Txn("T1", "s1", TxnStatus.COMMITTED, List.of(listRead("x"), listRead(KEY), append("x", 1))),
            new Finding.Txn("T2", SESSION, TxnStatus.COMMITTED, List.of(listRead("x"), listRead(KEY), append(KEY, 2)))),
        List.of(new Finding.Evidence("T1", listRead(KEY)), new Finding.Evidence("T2", append(KEY, 2)),
            new Finding.Evidence("T2", listRead("x")), new Finding.Evidence("T1", append("x", 1))),
        List.of(
            new Finding.Arrow("T1", "T2", RW, Because.ANTI_DEPENDENCY, KEY, 2L, null, "T1 read " + KEY + " = [] and so did not see T2's append of 2"),
            new Finding.Arrow("T2", "T1", RW, Because.ANTI_DEPENDENCY, "x", 1L, null, "T2 read x = [] and so did not see T1's append of 1")),
        List.of()));
    assertThat(writeSkewView()).isEqualTo(expected);
  }

  @Test
  void aPublishedRecordBecomesTheSameKindOfView() {
    io.isowatch.schemas.Violation record = new io.isowatch.schemas.Violation("db", "abc123",
        Instant.parse("2026-12-01T03:00:00Z"), io.isowatch.schemas.Level.READ_COMMITTED, "G1a",
        new Witness(List.of(
            new WitnessTransaction("T9", "s2", io.isowatch.schemas.TxnStatus.COMMITTED,
                List.of(new Operation(OpKind.READ, "x", 1L), new Operation(OpKind.READ, "k", List.of(3L, 4L)))),
            new WitnessTransaction("T8", "s1", io.isowatch.schemas.TxnStatus.ABORTED,
                List.of(new Operation(OpKind.WRITE, "x", 1L))),
            new WitnessTransaction("T_init", "", io.isowatch.schemas.TxnStatus.COMMITTED, List.of())),
            List.of(new WitnessEdge("T8", "T9", EdgeType.WR, "x", 1L, "T9 read x = 1 from T8")), List.of()),
        new Window(Instant.parse("2026-12-01T02:59:00Z"), Instant.parse("2026-12-01T03:00:00Z"), 42L),
        "T9 read x = 1 from T8, which aborted");
    assertThat(WitnessViews.of(record)).isEqualTo(new WitnessView("abc123",
        "G1a in history db (weakest level broken: read-committed)",
        List.of("found at event time 2026-12-01T03:00:00Z",
            "window: 42 transactions, event times 2026-12-01T02:59:00Z to 2026-12-01T03:00:00Z"),
        new Finding(Anomaly.ABORTED_READ, Level.READ_COMMITTED, "T9 read x = 1 from T8, which aborted",
            List.of(
                new Finding.Txn("T9", "s2", TxnStatus.COMMITTED, List.of(
                    Finding.Op.of(io.isowatch.checker.history.OpKind.READ, "x", 1, null),
                    Finding.Op.of(io.isowatch.checker.history.OpKind.READ_LIST, "k", 0, List.of(3L, 4L)))),
                new Finding.Txn("T8", "s1", TxnStatus.ABORTED, List.of(
                    Finding.Op.of(io.isowatch.checker.history.OpKind.WRITE, "x", 1, null))),
                new Finding.Txn("T_init", null, null, List.of())),
            List.of(), List.of(new Finding.Arrow("T8", "T9", WR, null, "x", 1L, null, "T9 read x = 1 from T8")), List.of())));
    assertThat(WitnessViews.of(record).finding().txns().get(0).ops()).extracting(Finding.Op::text)
        .containsExactly("r(x)=1", "r(k)=[.., 4]");
    record.setSummary(null);
    assertThat(WitnessViews.of(record).finding().summary()).isEqualTo("cycle T8 -> T8 (1 edge)");
  }

  @Test
  void theHtmlPageKeepsHostileNamesAsTextAndHasNoScript() {
    WitnessView v = writeSkewView();
    String html = new HtmlPage("report " + SESSION).legend().witness(v).html();
    Document doc = Jsoup.parse(html);

    assertThat(doc.select("script, b, iframe, object, embed, link")).isEmpty();
    for (Element e : doc.getAllElements()) {
      for (Attribute a : e.attributes()) {
        assertThat(a.getKey()).doesNotStartWith("on");
        assertThat(a.getValue()).doesNotContainIgnoringCase("javascript:");
      }
    }
    assertThat(doc.title()).isEqualTo("report " + SESSION);
    assertThat(doc.select("meta[http-equiv=Content-Security-Policy]").attr("content")).isEqualTo(HtmlPage.CSP);
    assertThat(doc.select("section#witness-v1 h2").text()).isEqualTo("G2-item title");
    assertThat(doc.select("p.summary").text()).isEqualTo("cycle T1 -> T2 -> T1 (2 edges)");
    assertThat(doc.select("ol.edges li").eachText()).containsExactly(
        "rw " + KEY + "=2 T1 read " + KEY + " = [] and so did not see T2's append of 2",
        "rw x=1 T2 read x = [] and so did not see T1's append of 1");
    assertThat(doc.select("ul.txns li").eachText()).containsExactly(
        "T1 (session s1): r(x)=[] r(" + KEY + ")=[] append(x,1)",
        "T2 (session " + SESSION + "): r(x)=[] r(" + KEY + ")=[] append(" + KEY + ",2)");
    // the picture: two red-bordered boxes, two arrows with their labels, the cycle's halo
    Element svg = doc.selectFirst("section#witness-v1 svg");
    assertThat(svg.select("g.txn.cycle").stream().map(g -> g.select("tspan").eachText()).toList()).containsExactly(
        List.of("T1 (session s1)", "r(x)=[]", "r(" + KEY + ")=[]", "append(x,1)"),
        List.of("T2 (session " + SESSION + ")", "r(x)=[]", "r(" + KEY + ")=[]", "append(" + KEY + ",2)"));
    assertThat(svg.select("g.edge-label text").eachText()).containsExactly("rw " + KEY + "=2", "rw x=1");
    assertThat(svg.select("path.edge.cycle")).hasSize(2);
    assertThat(svg.select("path.halo")).hasSize(2);
  }

  @Test
  void theDotGraphIsExactAndQuoted() {
    assertThat(DotWriter.write(List.of(writeSkewView()))).isEqualTo(String.join("\n",
        "digraph witnesses {",
        "  graph [fontname=\"monospace\", fontsize=11, labeljust=l];",
        "  node [shape=box, style=rounded, fontname=\"monospace\", fontsize=10];",
        "  edge [fontname=\"monospace\", fontsize=10];",
        "  subgraph cluster_1 {",
        "    label=\"G2-item title\";",
        "    \"1:T1\" [label=\"T1 (session s1)\\lr(x)=[]\\lr(<b>y</b>\\\"'&)=[]\\lappend(x,1)\\l\", color=\"#c62828\", penwidth=2];",
        "    \"1:T2\" [label=\"T2 (session s2<script>alert(1)</script>)\\lr(x)=[]\\lr(<b>y</b>\\\"'&)=[]\\lappend(<b>y</b>\\\"'&,2)\\l\", color=\"#c62828\", penwidth=2];",
        "    \"1:T1\" -> \"1:T2\" [label=\"rw <b>y</b>\\\"'&=2\", tooltip=\"T1 read <b>y</b>\\\"'& = [] and so did not see T2's append of 2\", color=\"#e65100\", penwidth=2.5];",
        "    \"1:T2\" -> \"1:T1\" [label=\"rw x=1\", tooltip=\"T2 read x = [] and so did not see T1's append of 1\", color=\"#e65100\", penwidth=2.5];",
        "  }",
        "}",
        ""));
    assertThat(DotWriter.quote("a\\b\"c\nd")).isEqualTo("\"a\\\\b\\\"c d\"");
  }

  @Test
  void boxesNeverOverlapAndArrowsRunFromBorderToBorder() {
    for (int k = 1; k <= 9; k++) {
      WitnessLayout layout = WitnessLayout.of(ring(k));
      List<WitnessLayout.Box> boxes = layout.boxes();
      assertThat(boxes).hasSize(k + 1);
      for (int i = 0; i < boxes.size(); i++) {
        WitnessLayout.Box a = boxes.get(i);
        assertThat(a.x()).isGreaterThanOrEqualTo(0);
        assertThat(a.y()).isGreaterThanOrEqualTo(0);
        assertThat(a.x() + a.w()).isLessThanOrEqualTo(layout.width());
        assertThat(a.y() + a.h()).isLessThanOrEqualTo(layout.height());
        for (int j = i + 1; j < boxes.size(); j++) {
          WitnessLayout.Box b = boxes.get(j);
          boolean apart = a.x() + a.w() <= b.x() || b.x() + b.w() <= a.x()
              || a.y() + a.h() <= b.y() || b.y() + b.h() <= a.y();
          assertThat(apart).as("k=%d: %s and %s overlap", k, a.name(), b.name()).isTrue();
        }
      }
      for (WitnessLayout.Curve c : layout.curves()) {
        double[] p = c.points();
        assertThat(onBorder(box(boxes, c.arrow().from()), p[0], p[1])).as("k=%d start of %s", k, c.arrow()).isTrue();
        assertThat(onBorder(box(boxes, c.arrow().to()), p[p.length - 2], p[p.length - 1]))
            .as("k=%d end of %s", k, c.arrow()).isTrue();
      }
      assertThat(layout.curves().stream().filter(WitnessLayout.Curve::onCycle).count()).isEqualTo(k);
    }
  }

  /** A cycle T0 -> T1 -> ... -> T0 of k ww edges, one extra reader R with a support edge to T0. */
  private static WitnessView ring(int k) {
    List<Finding.Txn> txns = new ArrayList<>();
    List<Finding.Arrow> edges = new ArrayList<>();
    for (int i = 0; i < k; i++) {
      txns.add(new Finding.Txn("T" + i, "s" + i, TxnStatus.COMMITTED, List.of(
          Finding.Op.of(io.isowatch.checker.history.OpKind.WRITE, "key" + i, 100 + i, null),
          Finding.Op.of(io.isowatch.checker.history.OpKind.READ, "z", i, null))));
      edges.add(new Finding.Arrow("T" + i, "T" + ((i + 1) % k), WW, null, "key" + i, (long) i, null, "sentence " + i));
    }
    txns.add(new Finding.Txn("R", "sr", TxnStatus.COMMITTED,
        List.of(Finding.Op.of(io.isowatch.checker.history.OpKind.READ, "z", 0, null))));
    return new WitnessView("ring", "ring", List.of(), new Finding(Anomaly.G0, Level.READ_UNCOMMITTED, null, txns, List.of(), edges,
        List.of(new Finding.Arrow("R", "T0", SO, null, null, null, null, "R precedes T0 in session sr"))));
  }

  private static WitnessLayout.Box box(List<WitnessLayout.Box> boxes, String name) {
    return boxes.stream().filter(b -> b.name().equals(name)).findFirst().orElseThrow();
  }

  private static boolean onBorder(WitnessLayout.Box b, double x, double y) {
    double eps = 0.01;
    boolean inside = x >= b.x() - eps && x <= b.x() + b.w() + eps && y >= b.y() - eps && y <= b.y() + b.h() + eps;
    boolean edge = Math.abs(x - b.x()) < eps || Math.abs(x - b.x() - b.w()) < eps
        || Math.abs(y - b.y()) < eps || Math.abs(y - b.y() - b.h()) < eps;
    return inside && edge;
  }

  private static Finding.Op listRead(String key) {
    return Finding.Op.of(io.isowatch.checker.history.OpKind.READ_LIST, key, 0, List.of());
  }

  private static Finding.Op append(String key, long element) {
    return Finding.Op.of(io.isowatch.checker.history.OpKind.APPEND, key, element, null);
  }
}
