/**
 * Witness pictures, one renderer for the offline report and the monitor's violations page: {@link
 * io.isowatch.report.WitnessViews} turns a checker violation or a published violation record into
 * a {@link io.isowatch.report.WitnessView} (a {@link io.isowatch.checker.finding.Finding} with a title
 * and facts); {@link io.isowatch.report.WitnessLayout}
 * places it, {@link io.isowatch.report.WitnessSvg} draws it as inline SVG, {@link
 * io.isowatch.report.HtmlPage} writes self-contained, escaped HTML pages around it, and {@link
 * io.isowatch.report.DotWriter} writes Graphviz DOT. No Kafka here: records come in as values.
 */
package io.isowatch.report;
