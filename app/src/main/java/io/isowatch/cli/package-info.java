/**
 * The {@code isowatch} command line: picocli commands that parse arguments and wire ({@link
 * io.isowatch.cli.IsowatchCli}, {@link io.isowatch.cli.CheckCommand}, {@link
 * io.isowatch.cli.MonitorCommand}, {@link io.isowatch.cli.ReplayCommand}, {@link
 * io.isowatch.cli.DemoCommand}, {@link io.isowatch.cli.MuseumCommand}, which runs the simulator's
 * ladder, {@link io.isowatch.cli.BrokerCommand}, which runs the in-process Kafka broker), and the testable classes that do the work: {@link
 * io.isowatch.cli.CheckRunner} loads a history file and checks it at each requested level, {@link
 * io.isowatch.cli.TextReport} and {@link io.isowatch.cli.JsonReport} print the outcome, {@link
 * io.isowatch.cli.PictureFiles} writes its {@code --report} HTML and {@code --dot} files, {@link
 * io.isowatch.cli.Progress} draws the progress bar, {@link io.isowatch.cli.MonitorRunner} runs the
 * streaming monitor, {@link io.isowatch.cli.ViolationText} prints a published violation, {@link
 * io.isowatch.cli.StreamDemo} runs the whole pipeline in one process.
 */
package io.isowatch.cli;
