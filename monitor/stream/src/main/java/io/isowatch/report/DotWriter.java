package io.isowatch.report;

import io.isowatch.checker.finding.Finding;
import java.util.List;
import java.util.Set;

/**
 * Writes witnesses as one Graphviz graph in the DOT language (Graphviz, "The DOT Language"): one
 * {@code digraph} with a cluster per witness ({@code subgraph cluster_N}, labelled with its title),
 * a box per transaction ({@code N:name}, labelled with its header and the operations {@link
 * Finding.Txn#shownOps} keeps, one per left-justified line), an edge per witness edge labelled
 * {@link Finding.Arrow#label()} and coloured as in {@link WitnessSvg}. The cycle's boxes and
 * edges are red-bordered and thick; support edges dashed and grey. Render with e.g. {@code dot
 * -Tsvg witnesses.dot > witnesses.svg}.
 *
 * <p>Every string is a double-quoted DOT string: backslashes and quotes escaped, line breaks
 * replaced by spaces ({@link #quote}).
 */
public final class DotWriter {
  private DotWriter() {}

  /** @return the graph, ending with a newline */
  public static String write(List<WitnessView> views) {
    StringBuilder sb = new StringBuilder("digraph witnesses {\n")
        .append("  graph [fontname=\"monospace\", fontsize=11, labeljust=l];\n")
        .append("  node [shape=box, style=rounded, fontname=\"monospace\", fontsize=10];\n")
        .append("  edge [fontname=\"monospace\", fontsize=10];\n");
    for (int i = 0; i < views.size(); i++) {
      WitnessView v = views.get(i);
      String p = (i + 1) + ":";
      sb.append("  subgraph cluster_").append(i + 1).append(" {\n    label=").append(quote(v.title())).append(";\n");
      Set<String> cycle = Set.copyOf(v.finding().cycle());
      Set<String> keys = v.finding().keys();
      for (Finding.Txn t : v.finding().txns()) {
        StringBuilder label = new StringBuilder(escape(t.header())).append("\\l");
        for (String op : t.shownOps(keys)) {
          label.append(escape(op)).append("\\l");
        }
        sb.append("    ").append(quote(p + t.name())).append(" [label=\"").append(label).append('"')
            .append(cycle.contains(t.name()) ? ", color=\"" + WitnessSvg.CYCLE + "\", penwidth=2" : "")
            .append("];\n");
      }
      for (Finding.Arrow a : v.finding().edges()) {
        edge(sb, p, a, "color=\"" + WitnessSvg.COLORS.getOrDefault(a.type().id(), "#424242") + "\", penwidth=2.5");
      }
      for (Finding.Arrow a : v.finding().support()) {
        edge(sb, p, a, "color=\"#9e9e9e\", style=dashed");
      }
      sb.append("  }\n");
    }
    return sb.append("}\n").toString();
  }

  private static void edge(StringBuilder sb, String prefix, Finding.Arrow a, String style) {
    sb.append("    ").append(quote(prefix + a.from())).append(" -> ").append(quote(prefix + a.to()))
        .append(" [label=").append(quote(a.label())).append(", tooltip=").append(quote(a.explanation()))
        .append(", ").append(style).append("];\n");
  }

  /** @return {@code s} as a double-quoted DOT string */
  static String quote(String s) {
    return '"' + escape(s) + '"';
  }

  private static String escape(String s) {
    return s.replace("\\", "\\\\").replace("\"", "\\\"").replace("\r", " ").replace("\n", " ");
  }
}
