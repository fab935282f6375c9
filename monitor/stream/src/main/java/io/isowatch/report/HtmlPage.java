package io.isowatch.report;

import io.isowatch.checker.finding.Finding;
import java.util.List;
import java.util.Set;
import org.apache.commons.text.StringEscapeUtils;

/**
 * One self-contained HTML5 page: inline CSS and inline SVG, no script, no external resource, so it
 * opens from a file or a closed network alike. Its Content-Security-Policy ({@link #CSP}, also sent
 * as a header by the monitor) forbids scripts and every load from elsewhere, so that even a bug in
 * escaping could not run code.
 *
 * <p>Every text passed in (names, keys, values, sentences, titles) is escaped with {@link #escape}
 * before it is written; only the page's own markup is written raw. Built by appending blocks, then
 * {@link #html()}.
 */
public final class HtmlPage {
  /** The page's Content-Security-Policy: nothing but its own inline styles and same-origin forms. */
  public static final String CSP =
      "default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'self'; base-uri 'none'";

  private static final String STYLE = String.join("\n",
      "body{font-family:system-ui,sans-serif;margin:1.5em;color:#212121;max-width:110em}",
      "h1{font-size:1.4em}h2{font-size:1.15em;margin:0 0 .3em}",
      "section.witness{border-top:1px solid #ccc;padding:1em 0;display:flex;flex-wrap:wrap;gap:1.5em}",
      "section.witness>header{flex-basis:100%}",
      ".picture{overflow:auto;max-width:100%}.words{flex:1;min-width:28em}",
      ".facts{color:#555;margin:0}.summary{font-weight:bold}",
      "code,.label,td.mono{font-family:monospace}",
      ".label{display:inline-block;padding:0 .3em;border:1px solid;border-radius:3px;margin-right:.4em}",
      ".edges li,.txns li{margin:.25em 0}",
      "table{border-collapse:collapse}td,th{border:1px solid #ddd;padding:.25em .6em;text-align:left}",
      "form{margin:1em 0}label{margin-right:1em}",
      ".legend span{margin-right:1em}");

  private final StringBuilder sb = new StringBuilder();

  /** @param title the page's title, also its first heading */
  public HtmlPage(String title) {
    sb.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
        .append("<meta http-equiv=\"Content-Security-Policy\" content=\"").append(escape(CSP)).append("\">\n")
        .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
        .append("<title>").append(escape(title)).append("</title>\n<style>\n").append(STYLE)
        .append("\n</style>\n</head>\n<body>\n<h1>").append(escape(title)).append("</h1>\n");
  }

  /**
   * @return {@code s} with {@code & < > " '} replaced by character references and characters that
   *     XML 1.0 forbids (most C0 controls, lone surrogates) removed (Apache Commons Text, {@code
   *     StringEscapeUtils.escapeXml10}), safe in HTML text, double-quoted attributes and inline SVG
   */
  public static String escape(String s) {
    return StringEscapeUtils.escapeXml10(s);
  }

  /** Appends a paragraph of text. */
  public HtmlPage paragraph(String text) {
    sb.append("<p>").append(escape(text)).append("</p>\n");
    return this;
  }

  /** Appends a paragraph holding one link. */
  public HtmlPage link(String text, String href) {
    sb.append("<p><a href=\"").append(escape(href)).append("\">").append(escape(text)).append("</a></p>\n");
    return this;
  }

  /** Appends the legend of the edge types and colours. */
  public HtmlPage legend() {
    sb.append("<p class=\"legend\">");
    for (String t : List.of("so", "wr", "ww", "rw", "co")) {
      sb.append("<span><span class=\"label\" style=\"color:").append(WitnessSvg.COLORS.get(t)).append("\">")
          .append(t).append("</span>").append(escape(meaning(t))).append("</span>");
    }
    sb.append("<span><span class=\"label\" style=\"color:").append(WitnessSvg.CYCLE)
        .append(";background:#ffcdd2\">cycle</span>red border and halo</span></p>\n");
    return this;
  }

  private static String meaning(String type) {
    return switch (type) {
      case "so" -> "session order";
      case "wr" -> "write-read";
      case "ww" -> "write-write";
      case "rw" -> "read-write (anti-dependency)";
      default -> "inferred commit order";
    };
  }

  /**
   * Appends one witness as a section with id {@code witness-ID}: its title and facts, the picture
   * ({@link WitnessSvg}), and beside it the summary, one line per edge (its label, then its
   * sentence), and each transaction with all its operations.
   */
  public HtmlPage witness(WitnessView v) {
    sb.append("<section class=\"witness\" id=\"witness-").append(escape(v.id())).append("\">\n<header><h2>")
        .append(escape(v.title())).append("</h2>\n");
    for (String f : v.facts()) {
      sb.append("<p class=\"facts\">").append(escape(f)).append("</p>\n");
    }
    sb.append("</header>\n<div class=\"picture\">\n").append(WitnessSvg.render(v)).append("\n</div>\n")
        .append("<div class=\"words\">\n");
    if (v.finding().summary() != null) {
      sb.append("<p class=\"summary\">").append(escape(v.finding().summary())).append("</p>\n");
    }
    edges(v.finding().edges(), "edges");
    if (!v.finding().support().isEmpty()) {
      sb.append("<p>Support (edges that put the source of a causal-past edge in its reader's past):</p>\n");
      edges(v.finding().support(), "edges support");
    }
    sb.append("<ul class=\"txns\">\n");
    for (Finding.Txn t : v.finding().txns()) {
      sb.append("<li><code>").append(escape(t.line())).append("</code></li>\n");
    }
    sb.append("</ul>\n</div>\n</section>\n");
    return this;
  }

  private void edges(List<Finding.Arrow> arrows, String cls) {
    if (arrows.isEmpty()) {
      return;
    }
    sb.append("<ol class=\"").append(cls).append("\">\n");
    for (Finding.Arrow a : arrows) {
      sb.append("<li><span class=\"label\" style=\"color:").append(WitnessSvg.COLORS.getOrDefault(a.type().id(), "#424242"))
          .append("\">").append(escape(a.label())).append("</span> ").append(escape(a.explanation())).append("</li>\n");
    }
    sb.append("</ol>\n");
  }

  /**
   * One table cell.
   *
   * @param text its text
   * @param href a link target, or {@code null} for plain text
   */
  public record Cell(String text, String href) {
    /** @return a cell without a link */
    public static Cell of(String text) {
      return new Cell(text, null);
    }
  }

  /** Appends a table with one header row. */
  public HtmlPage table(List<String> header, List<List<Cell>> rows) {
    sb.append("<table>\n<thead><tr>");
    for (String h : header) {
      sb.append("<th>").append(escape(h)).append("</th>");
    }
    sb.append("</tr></thead>\n<tbody>\n");
    for (List<Cell> row : rows) {
      sb.append("<tr>");
      for (Cell c : row) {
        sb.append("<td>");
        if (c.href() != null) {
          sb.append("<a href=\"").append(escape(c.href())).append("\">").append(escape(c.text())).append("</a>");
        } else {
          sb.append(escape(c.text()));
        }
        sb.append("</td>");
      }
      sb.append("</tr>\n");
    }
    sb.append("</tbody>\n</table>\n");
    return this;
  }

  /**
   * One drop-down of a filter form.
   *
   * @param name the query parameter
   * @param label what the user reads
   * @param options the values offered besides "any" (the empty value)
   * @param selected the value chosen now, {@code null} for any
   */
  public record Select(String name, String label, Set<String> options, String selected) {}

  /** Appends a GET form to {@code action} with one drop-down per {@code selects} and a button. */
  public HtmlPage filterForm(String action, List<Select> selects) {
    sb.append("<form method=\"get\" action=\"").append(escape(action)).append("\">\n");
    for (Select s : selects) {
      sb.append("<label>").append(escape(s.label())).append(" <select name=\"").append(escape(s.name()))
          .append("\"><option value=\"\">any</option>");
      for (String o : s.options()) {
        sb.append("<option").append(o.equals(s.selected()) ? " selected" : "").append(" value=\"")
            .append(escape(o)).append("\">").append(escape(o)).append("</option>");
      }
      sb.append("</select></label>\n");
    }
    sb.append("<button type=\"submit\">filter</button>\n</form>\n");
    return this;
  }

  /** @return the whole page */
  public String html() {
    return sb + "</body>\n</html>\n";
  }
}
