package io.isowatch.report;

import static io.isowatch.report.WitnessLayout.fmt;

import io.isowatch.checker.finding.Finding;
import java.util.Map;
import java.util.TreeMap;

/**
 * Draws a {@link WitnessView} as an inline SVG element (SVG 1.1; W3C, "Scalable Vector Graphics
 * 1.1", paths §8, markers §11.6, text §10), laid out by {@link WitnessLayout}: transactions as
 * boxes listing their operations, edges as arrows labelled {@code type key=value} ({@link
 * Finding.Arrow#label()}), coloured by type. The cycle is highlighted: its boxes have a red
 * border and its edges a thick pale red halo under a solid arrow; support edges are thin, dashed
 * and grey, and drawn under the boxes (cycle edges over them). Labels come last, on top. Every text is escaped ({@link HtmlPage#escape}); ids are prefixed with a token made of
 * the view's id, so that several drawings can share a page.
 */
public final class WitnessSvg {
  /** Stroke colour per edge type. */
  public static final Map<String, String> COLORS = Map.of(
      "so", "#546e7a", "wr", "#1565c0", "ww", "#2e7d32", "rw", "#e65100", "co", "#6a1b9a");
  /** Border of the cycle's boxes and colour of the cycle's halo. */
  public static final String CYCLE = "#c62828";
  private static final String HALO = "#ffcdd2";
  private static final String SUPPORT = "#9e9e9e";
  private static final String OTHER = "#424242";

  private WitnessSvg() {}

  /** @return the drawing: one {@code <svg>} element with a {@code <title>} */
  public static String render(WitnessView v) {
    WitnessLayout layout = WitnessLayout.of(v);
    String prefix = "w" + Integer.toHexString(v.id().hashCode()) + "-";
    StringBuilder sb = new StringBuilder();
    sb.append("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"witness-svg\" width=\"").append(fmt(layout.width()))
        .append("\" height=\"").append(fmt(layout.height())).append("\" viewBox=\"0 0 ")
        .append(fmt(layout.width())).append(' ').append(fmt(layout.height()))
        .append("\" font-family=\"monospace\" font-size=\"").append(fmt(WitnessLayout.FONT_SIZE)).append("\">\n");
    sb.append("<title>").append(HtmlPage.escape(v.finding().summary() != null ? v.finding().summary() : v.title())).append("</title>\n");
    sb.append("<defs>\n");
    for (Map.Entry<String, String> c : new TreeMap<>(COLORS).entrySet()) {
      marker(sb, prefix + c.getKey(), c.getValue());
    }
    marker(sb, prefix + "support", SUPPORT);
    marker(sb, prefix + "other", OTHER);
    sb.append("</defs>\n");
    for (WitnessLayout.Curve c : layout.curves()) {
      if (c.onCycle()) {
        sb.append("<path class=\"halo\" d=\"").append(c.path()).append("\" fill=\"none\" stroke=\"").append(HALO)
            .append("\" stroke-width=\"9\" stroke-linecap=\"round\"/>\n");
      }
    }
    for (WitnessLayout.Curve c : layout.curves()) {
      if (!c.onCycle()) {
        edge(sb, c, prefix);
      }
    }
    for (WitnessLayout.Box b : layout.boxes()) {
      box(sb, b);
    }
    for (WitnessLayout.Curve c : layout.curves()) {
      if (c.onCycle()) {
        edge(sb, c, prefix);
      }
    }
    for (WitnessLayout.Curve c : layout.curves()) {
      label(sb, c, !c.onCycle() ? SUPPORT : COLORS.getOrDefault(c.arrow().type().id(), OTHER));
    }
    return sb.append("</svg>").toString();
  }

  private static void edge(StringBuilder sb, WitnessLayout.Curve c, String prefix) {
    String type = c.arrow().type().id();
    String color = !c.onCycle() ? SUPPORT : COLORS.getOrDefault(type, OTHER);
    String marker = !c.onCycle() ? "support" : COLORS.containsKey(type) ? type : "other";
    sb.append("<path class=\"edge edge-").append(HtmlPage.escape(type)).append(c.onCycle() ? " cycle" : " support")
        .append("\" d=\"").append(c.path()).append("\" fill=\"none\" stroke=\"").append(color)
        .append(c.onCycle() ? "\" stroke-width=\"2.5\"" : "\" stroke-width=\"1.5\" stroke-dasharray=\"5 4\"")
        .append(" marker-end=\"url(#").append(prefix).append(marker).append(")\"><title>")
        .append(HtmlPage.escape(c.arrow().from() + " -> " + c.arrow().to() + ": " + c.arrow().explanation()))
        .append("</title></path>\n");
  }

  private static void marker(StringBuilder sb, String id, String color) {
    sb.append("<marker id=\"").append(id).append("\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\"")
        .append(" markerWidth=\"7\" markerHeight=\"7\" markerUnits=\"strokeWidth\" orient=\"auto\">")
        .append("<path d=\"M0,0 L10,5 L0,10 z\" fill=\"").append(color).append("\"/></marker>\n");
  }

  private static void box(StringBuilder sb, WitnessLayout.Box b) {
    sb.append("<g class=\"txn").append(b.onCycle() ? " cycle" : "").append("\">")
        .append("<rect x=\"").append(fmt(b.x())).append("\" y=\"").append(fmt(b.y())).append("\" width=\"")
        .append(fmt(b.w())).append("\" height=\"").append(fmt(b.h())).append("\" rx=\"6\" fill=\"")
        .append(b.onCycle() ? "#fff8f8" : "#fafafa").append("\" stroke=\"").append(b.onCycle() ? CYCLE : "#9e9e9e")
        .append("\" stroke-width=\"").append(b.onCycle() ? "2" : "1").append("\"/>");
    double x = b.x() + 8;
    double y = b.y() + 8 + WitnessLayout.FONT_SIZE;
    sb.append("<text x=\"").append(fmt(x)).append("\" y=\"").append(fmt(y)).append("\" fill=\"#212121\">");
    for (int i = 0; i < b.lines().size(); i++) {
      sb.append("<tspan x=\"").append(fmt(x)).append("\" y=\"").append(fmt(y + i * WitnessLayout.LINE)).append('"')
          .append(i == 0 ? " font-weight=\"bold\"" : "").append('>')
          .append(HtmlPage.escape(b.lines().get(i))).append("</tspan>");
    }
    sb.append("</text></g>\n");
  }

  private static void label(StringBuilder sb, WitnessLayout.Curve c, String color) {
    double w = c.labelWidth();
    double h = WitnessLayout.LINE + 2;
    sb.append("<g class=\"edge-label\"><rect x=\"").append(fmt(c.labelX() - w / 2)).append("\" y=\"")
        .append(fmt(c.labelY() - h / 2)).append("\" width=\"").append(fmt(w)).append("\" height=\"")
        .append(fmt(h)).append("\" rx=\"3\" fill=\"#ffffff\" stroke=\"").append(color).append("\"/>")
        .append("<text x=\"").append(fmt(c.labelX())).append("\" y=\"").append(fmt(c.labelY() + 4))
        .append("\" text-anchor=\"middle\" fill=\"").append(color).append("\">")
        .append(HtmlPage.escape(c.arrow().label())).append("</text></g>\n");
  }
}
