package io.isowatch.cli;

import io.isowatch.checker.LevelVerdicts;
import io.isowatch.checker.witness.WitnessRenderer;
import io.isowatch.report.DotWriter;
import io.isowatch.report.HtmlPage;
import io.isowatch.report.WitnessView;
import io.isowatch.report.WitnessViews;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code --report} (HTML) and {@code --dot} (Graphviz) files of {@code isowatch check}: the
 * violations the text report shows (each once with the levels that found it, at most a limit per
 * level, every one with {@code --all}), each
 * drawn by the one renderer of {@link io.isowatch.report}, which the monitor's violations page uses
 * too.
 */
final class PictureFiles {
  private PictureFiles() {}

  /**
   * @param report the check's outcome
   * @param limit the most violations per level
   * @return the witnesses the text report prints, in its order and each once ({@link
   *     TextReport#shown}), ids {@code v1}, {@code v2} ..., titled as the text report heads them
   *     ({@link TextReport#violationHeader})
   */
  static List<WitnessView> views(CheckReport report, int limit) {
    TextReport.Shown shown = TextReport.shown(report, limit);
    List<WitnessView> out = new ArrayList<>();
    for (TextReport.Block b : shown.blocks()) {
      out.add(WitnessViews.of(report.history(), b.violation(), "v" + (out.size() + 1),
          TextReport.violationHeader(b, out.size(), shown.distinct())));
    }
    return out;
  }

  /**
   * @return a self-contained HTML page: titled {@code isowatch check FILE}, one line per level with
   *     its verdict (and the ladder when asked), a line per level whose violations were cut, the
   *     legend, then each witness ({@link HtmlPage#witness})
   */
  static String html(CheckReport report, int limit) {
    HtmlPage page = new HtmlPage("isowatch check " + report.file());
    WitnessRenderer renderer = new WitnessRenderer(report.history());
    for (LevelVerdicts.Line line : report.verdicts().lines()) {
      page.paragraph(TextReport.verdictLine(line, renderer));
    }
    if (report.ladder()) {
      page.paragraph(report.ladderLine());
    }
    TextReport.shown(report, limit).notShown().forEach(page::paragraph);
    List<WitnessView> views = views(report, limit);
    if (!views.isEmpty()) {
      page.legend();
    }
    views.forEach(page::witness);
    return page.html();
  }

  /** @return the same witnesses as {@link #html} as one DOT graph ({@link DotWriter}) */
  static String dot(CheckReport report, int limit) {
    return DotWriter.write(views(report, limit));
  }
}
