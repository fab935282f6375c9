package io.isowatch.report;

import io.isowatch.checker.finding.Finding;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Where {@link WitnessSvg} draws a witness, in SVG user units (pixels at 100%): deterministic, a
 * function of the {@link WitnessView} alone. The cycle's transactions stand on a circle in the
 * cycle's order, clockwise from the top (two of them: left and right), far enough apart that the
 * boxes do not overlap and the labels fit between them (the smallest radius, in steps of 10 px,
 * that leaves 110 px, or the longest cycle label plus 40 px, between any two boxes horizontally
 * or vertically); the other transactions (readers of
 * inferred edges, support paths, or all of them for an anomaly without a cycle) stand in a row
 * below. Each edge is a quadratic Bézier curve from box border to box border, bent outwards so that
 * the two directions between one pair of boxes never coincide, with its label at the curve's
 * midpoint. A self-loop is a cubic loop over its box.
 *
 * <p>Text widths are estimated for a monospace font of {@value #FONT_SIZE} px ({@value #CHAR_WIDTH}
 * px per character, the advance of DejaVu Sans Mono and of most monospace faces: 0.6 em). Box lines
 * longer than {@value #MAX_CHARS} characters are cut with {@code …}; a box lists at most {@value
 * #MAX_LINES} operations, then how many more there are (the page's transaction list has them all).
 */
public final class WitnessLayout {
  /** Font size of all text, px. */
  public static final double FONT_SIZE = 12;
  /** Estimated advance of one monospace character at {@link #FONT_SIZE}, px. */
  public static final double CHAR_WIDTH = 7.2;
  /** Distance between two lines of a box, px. */
  public static final double LINE = 16;
  /** Longest box line, characters. */
  public static final int MAX_CHARS = 48;
  /** Most operations listed in a box. */
  public static final int MAX_LINES = 12;

  private static final double PAD = 8;
  private static final double MARGIN = 24;
  private static final double BEND = 36;
  private static final double GAP = 48;
  private static final double ROW_GAP = 96;
  private static final double SPACE = 110;

  /**
   * One transaction's box.
   *
   * @param name the transaction's name
   * @param x left edge
   * @param y top edge
   * @param w width
   * @param h height
   * @param lines the header, then the operations shown
   * @param onCycle whether the transaction is on the cycle
   */
  public record Box(String name, double x, double y, double w, double h, List<String> lines, boolean onCycle) {
    /** @return the horizontal centre */
    public double cx() {
      return x + w / 2;
    }

    /** @return the vertical centre */
    public double cy() {
      return y + h / 2;
    }

    Box moved(double dx, double dy) {
      return new Box(name, x + dx, y + dy, w, h, lines, onCycle);
    }
  }

  /**
   * One edge's curve.
   *
   * @param arrow the edge
   * @param onCycle whether it is a cycle edge (else a support edge)
   * @param points the path's points: start, control point(s), end; 3 for a curve, 4 for a self-loop
   * @param labelX the label's centre
   * @param labelY the label's centre
   */
  public record Curve(Finding.Arrow arrow, boolean onCycle, double[] points, double labelX, double labelY) {
    /** @return the SVG path data, e.g. {@code M10.0,20.0 Q30.0,5.0 50.0,20.0} */
    public String path() {
      String op = points.length == 6 ? " Q" : " C";
      StringBuilder d = new StringBuilder("M").append(fmt(points[0])).append(',').append(fmt(points[1])).append(op);
      for (int i = 2; i < points.length; i += 2) {
        d.append(' ').append(fmt(points[i])).append(',').append(fmt(points[i + 1]));
      }
      return d.toString();
    }

    /** @return the label's width, px */
    public double labelWidth() {
      return arrow.label().length() * CHAR_WIDTH + 8;
    }

    Curve moved(double dx, double dy) {
      double[] p = points.clone();
      for (int i = 0; i < p.length; i += 2) {
        p[i] += dx;
        p[i + 1] += dy;
      }
      return new Curve(arrow, onCycle, p, labelX + dx, labelY + dy);
    }
  }

  private final List<Box> boxes;
  private final List<Curve> curves;
  private final double width;
  private final double height;

  private WitnessLayout(List<Box> boxes, List<Curve> curves, double width, double height) {
    this.boxes = List.copyOf(boxes);
    this.curves = List.copyOf(curves);
    this.width = width;
    this.height = height;
  }

  /** @return the boxes, cycle transactions first in the cycle's order, then the others in the view's order */
  public List<Box> boxes() {
    return boxes;
  }

  /** @return the curves, cycle edges first in order, then support edges */
  public List<Curve> curves() {
    return curves;
  }

  /** @return the drawing's width, px */
  public double width() {
    return width;
  }

  /** @return the drawing's height, px */
  public double height() {
    return height;
  }

  /** @return the layout of {@code v}, as described on the class */
  public static WitnessLayout of(WitnessView v) {
    Set<String> keys = v.finding().keys();
    Map<String, List<String>> lines = new LinkedHashMap<>();
    for (Finding.Txn t : v.finding().txns()) {
      lines.putIfAbsent(t.name(), boxLines(t.header(), t.shownOps(keys)));
    }
    for (List<Finding.Arrow> as : List.of(v.finding().edges(), v.finding().support())) {
      for (Finding.Arrow a : as) {
        lines.putIfAbsent(a.from(), List.of(a.from()));
        lines.putIfAbsent(a.to(), List.of(a.to()));
      }
    }
    List<String> cycle = v.finding().cycle();
    Map<String, Box> placed = new LinkedHashMap<>();
    int k = cycle.size();
    double[] w = new double[k];
    double[] h = new double[k];
    double[] angle = new double[k];
    for (int i = 0; i < k; i++) {
      w[i] = boxWidth(lines.get(cycle.get(i)));
      h[i] = boxHeight(lines.get(cycle.get(i)));
      angle[i] = k == 2 ? Math.PI * (1 + i) : -Math.PI / 2 + 2 * Math.PI * i / k;
    }
    double space = SPACE;
    for (Finding.Arrow a : v.finding().edges()) {
      space = Math.max(space, a.label().length() * CHAR_WIDTH + 40);
    }
    double radius = 0;
    while (k > 1 && !roomy(radius, space, w, h, angle)) {
      radius += 10;
    }
    for (int i = 0; i < k; i++) {
      List<String> ls = lines.get(cycle.get(i));
      placed.put(cycle.get(i), new Box(cycle.get(i), radius * Math.cos(angle[i]) - w[i] / 2,
          radius * Math.sin(angle[i]) - h[i] / 2, w[i], h[i], ls, true));
    }
    double rowY = placed.values().stream().mapToDouble(b -> b.y() + b.h()).max().orElse(-ROW_GAP) + ROW_GAP;
    double rowX = placed.values().stream().mapToDouble(Box::x).min().orElse(0);
    for (Map.Entry<String, List<String>> e : lines.entrySet()) {
      if (!placed.containsKey(e.getKey())) {
        double width = boxWidth(e.getValue());
        placed.put(e.getKey(), new Box(e.getKey(), rowX, rowY, width, boxHeight(e.getValue()), e.getValue(), false));
        rowX += width + GAP;
      }
    }
    List<Curve> curves = new ArrayList<>();
    Map<String, Integer> parallel = new HashMap<>();
    for (Finding.Arrow a : v.finding().edges()) {
      curves.add(curve(a, true, placed, parallel));
    }
    for (Finding.Arrow a : v.finding().support()) {
      curves.add(curve(a, false, placed, parallel));
    }
    return fitted(List.copyOf(placed.values()), curves);
  }

  /**
   * @return whether boxes centred on a circle of {@code radius} at {@code angle} keep at least
   *     {@code space} px between any two of them, horizontally or vertically
   */
  private static boolean roomy(double radius, double space, double[] w, double[] h, double[] angle) {
    for (int i = 0; i < w.length; i++) {
      for (int j = i + 1; j < w.length; j++) {
        double dx = Math.abs(radius * (Math.cos(angle[i]) - Math.cos(angle[j]))) - (w[i] + w[j]) / 2;
        double dy = Math.abs(radius * (Math.sin(angle[i]) - Math.sin(angle[j]))) - (h[i] + h[j]) / 2;
        if (Math.max(dx, dy) < space) {
          return false;
        }
      }
    }
    return true;
  }

  private static Curve curve(Finding.Arrow a, boolean onCycle, Map<String, Box> boxes, Map<String, Integer> parallel) {
    Box s = boxes.get(a.from());
    Box t = boxes.get(a.to());
    int n = parallel.merge(a.from() + "\u0000" + a.to(), 1, Integer::sum);
    double bend = BEND * n;
    if (s == t) {
      double top = s.y();
      double[] p = {s.cx() - 12, top, s.cx() - 40, top - bend * 1.6, s.cx() + 40, top - bend * 1.6, s.cx() + 12, top};
      return new Curve(a, onCycle, p, s.cx(), top - bend * 1.2);
    }
    double dx = t.cx() - s.cx();
    double dy = t.cy() - s.cy();
    double len = Math.hypot(dx, dy);
    double cx = (s.cx() + t.cx()) / 2 + bend * dy / len;
    double cy = (s.cy() + t.cy()) / 2 - bend * dx / len;
    double[] start = border(s, cx, cy);
    double[] end = border(t, cx, cy);
    double[] p = {start[0], start[1], cx, cy, end[0], end[1]};
    return new Curve(a, onCycle, p, 0.25 * start[0] + 0.5 * cx + 0.25 * end[0],
        0.25 * start[1] + 0.5 * cy + 0.25 * end[1]);
  }

  /** @return where the segment from the box's centre towards (x, y) leaves the box */
  private static double[] border(Box b, double x, double y) {
    double dx = x - b.cx();
    double dy = y - b.cy();
    double tx = dx == 0 ? Double.POSITIVE_INFINITY : (b.w() / 2) / Math.abs(dx);
    double ty = dy == 0 ? Double.POSITIVE_INFINITY : (b.h() / 2) / Math.abs(dy);
    double t = Math.min(Math.min(tx, ty), 1);
    return new double[] {b.cx() + t * dx, b.cy() + t * dy};
  }

  /** Moves everything so that the drawing starts at the margin, and measures it. */
  private static WitnessLayout fitted(List<Box> boxes, List<Curve> curves) {
    double minX = Double.POSITIVE_INFINITY;
    double minY = Double.POSITIVE_INFINITY;
    double maxX = Double.NEGATIVE_INFINITY;
    double maxY = Double.NEGATIVE_INFINITY;
    for (Box b : boxes) {
      minX = Math.min(minX, b.x());
      minY = Math.min(minY, b.y());
      maxX = Math.max(maxX, b.x() + b.w());
      maxY = Math.max(maxY, b.y() + b.h());
    }
    for (Curve c : curves) {
      double[] p = c.points();
      for (int i = 0; i < p.length; i += 2) {
        minX = Math.min(minX, p[i]);
        minY = Math.min(minY, p[i + 1]);
        maxX = Math.max(maxX, p[i]);
        maxY = Math.max(maxY, p[i + 1]);
      }
      minX = Math.min(minX, c.labelX() - c.labelWidth() / 2);
      maxX = Math.max(maxX, c.labelX() + c.labelWidth() / 2);
      minY = Math.min(minY, c.labelY() - LINE / 2);
      maxY = Math.max(maxY, c.labelY() + LINE / 2);
    }
    if (boxes.isEmpty()) {
      return new WitnessLayout(List.of(), List.of(), 2 * MARGIN, 2 * MARGIN);
    }
    double dx = MARGIN - minX;
    double dy = MARGIN - minY;
    return new WitnessLayout(boxes.stream().map(b -> b.moved(dx, dy)).toList(),
        curves.stream().map(c -> c.moved(dx, dy)).toList(), maxX - minX + 2 * MARGIN, maxY - minY + 2 * MARGIN);
  }

  private static List<String> boxLines(String header, List<String> ops) {
    List<String> out = new ArrayList<>();
    out.add(cut(header));
    int shown = Math.min(ops.size(), MAX_LINES);
    for (int i = 0; i < shown; i++) {
      out.add(cut(ops.get(i)));
    }
    if (ops.size() > shown) {
      out.add("... (" + (ops.size() - shown) + " more lines)");
    }
    return out;
  }

  private static String cut(String s) {
    return s.length() <= MAX_CHARS ? s : s.substring(0, MAX_CHARS - 1) + "\u2026";
  }

  private static double boxWidth(List<String> lines) {
    int chars = lines.stream().mapToInt(String::length).max().orElse(0);
    return chars * CHAR_WIDTH + 2 * PAD;
  }

  private static double boxHeight(List<String> lines) {
    return lines.size() * LINE + 2 * PAD;
  }

  /** @return a coordinate with one decimal, e.g. {@code 12.5} */
  static String fmt(double v) {
    return String.format(java.util.Locale.ROOT, "%.1f", v);
  }
}
