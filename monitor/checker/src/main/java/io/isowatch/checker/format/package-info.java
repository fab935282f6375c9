/**
 * History file formats: readers for isowatch JSON lines, Plume/PolySI text, AWDIT's test format,
 * Elle/Jepsen EDN, dbcop bincode and Cobra logs, writers for JSON lines and Plume, and format
 * detection. {@link io.isowatch.checker.format.HistoryFiles} is the entry point; malformed input
 * raises {@link io.isowatch.checker.format.HistoryFormatException} naming file, line or byte
 * offset, problem and what was expected. The conventions chosen per format are documented on each
 * reader and in {@code docs/history-format.md}.
 */
package io.isowatch.checker.format;
