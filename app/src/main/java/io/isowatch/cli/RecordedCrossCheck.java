package io.isowatch.cli;

import io.isowatch.checker.format.HistoryFiles;
import io.isowatch.checker.format.HistoryFormatException;
import io.isowatch.checker.history.History;
import io.isowatch.connectors.debezium.cdc.CapturedTransaction;
import io.isowatch.connectors.debezium.cdc.CommitCrossCheck;
import io.isowatch.connectors.debezium.cdc.CrossCheckReport;
import io.isowatch.connectors.debezium.cdc.Finding;
import io.isowatch.schemas.Transaction;
import io.isowatch.stream.replay.HistoryRecords;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code isowatch capture --cdc --recorded FILE}: what the clients recorded (a history file, e.g. the
 * probe's {@code --out}, written while the capture runs) cross-checked against the database
 * transactions this run of the capture saw, with {@link CommitCrossCheck}, when the capture stops.
 * The file is read then. Holds every captured transaction until then (memory: the captured row
 * changes), so it is for bounded runs such as a probe's, recorded and captured by one run.
 */
final class RecordedCrossCheck {
  private final Path file;
  private final List<CapturedTransaction> captured = new ArrayList<>();

  /** @param file a history file in any format {@code isowatch check} reads */
  RecordedCrossCheck(Path file) {
    this.file = file;
  }

  /** Takes one whole captured transaction, in commit order; called on the capture's thread. */
  synchronized void add(CapturedTransaction t) {
    captured.add(t);
  }

  /**
   * Reads the file, cross-checks, and prints one line per finding and a summary on {@code err}.
   *
   * @param table the list-append table without schema
   * @return the number of findings, or -1 if the file cannot be read (one line on {@code err} says
   *     why: file, line and problem)
   */
  synchronized int report(String table, PrintWriter err) {
    List<Transaction> recorded = new ArrayList<>();
    try {
      History h = HistoryFiles.read(file, null, bytes -> { });
      new HistoryRecords(h, "recorded", Instant.EPOCH, Duration.ofNanos(1000))
          .forEachTransaction(k -> recorded.add((Transaction) k.value()));
    } catch (HistoryFormatException e) {
      err.println("isowatch capture: --recorded " + e.getMessage());
      err.flush();
      return -1;
    } catch (IOException e) {
      err.println("isowatch capture: --recorded " + file + ": cannot read it: " + e.getMessage());
      err.flush();
      return -1;
    }
    CrossCheckReport r = CommitCrossCheck.check(recorded, captured, table);
    for (Finding f : r.findings()) {
      err.println("capture: finding: " + f.kind() + (f.txnId() == null ? "" : " recorded " + f.txnId())
          + (f.dbTxn() == null ? "" : " database transaction " + f.dbTxn())
          + (f.key() == null ? "" : " key " + f.key()) + (f.element() == null ? "" : " element " + f.element())
          + ": " + f.detail());
    }
    err.println("capture: cross-check with " + file + ": " + r.confirmed().size() + " recorded transactions"
        + " confirmed, " + r.findings().size() + " findings");
    err.flush();
    return r.findings().size();
  }
}
