package io.isowatch.schemas.debezium;

import io.isowatch.schemas.EventTimes;
import io.isowatch.schemas.OpKind;
import io.isowatch.schemas.Operation;
import io.isowatch.schemas.Source;
import io.isowatch.schemas.Transaction;
import io.isowatch.schemas.TxnStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The change events of a list-append table (the probe's shape: key column {@code k}, column {@code
 * v} holding the list as {@link ListValues} text), one database transaction at a time, as the
 * {@link Transaction} records the monitor checks: what the database itself did, and nothing a client
 * may have done besides. The one conversion, shared by {@code isowatch capture --cdc}.
 *
 * <p>Each whole database transaction (its row changes grouped by xid or GTID, in stream order)
 * becomes one COMMITTED transaction, {@code txnId} and {@code sessionId} {@value #PREFIX}{@code
 * <xid>} (or {@code <gtid>}), {@code txnSeq} 0: CDC has no client sessions, and a session order
 * between database transactions would add {@code so} edges that are not facts. For each row change
 * of the table, in order: an APPEND of each element its after list holds and its before list does
 * not (in the after list's order), then a READ of the key returning the whole after list. The
 * UPDATE evaluated {@code v || e} on the row's latest committed version while holding the row's
 * lock until commit, so this read is what the database itself read and wrote, and the reads give
 * the monitor each key's version order (Kingsbury and Alvaro, "Elle", VLDB 2020, section 4: list
 * append histories recover the version order from reads). An insert appends its whole list.
 * Begin and end time are the database's commit time ({@link RowChange#timeMicros}), so that the
 * same transaction read twice from the log (a restart) is the same record, byte for byte, which
 * the monitor's duplicate filter drops.
 *
 * <p><b>Baselines.</b> Elements already in a row when the capture first sees the key (committed
 * before the replication slot existed) were never appended in a captured transaction; read
 * without a writer they would be thin-air reads. Before the key's first captured transaction, a
 * baseline transaction {@code txnId} = {@code sessionId} = {@value #BASELINE_PREFIX}{@code <key>},
 * {@code txnSeq} 0, appends those elements in the before list's order: facts read from the row's
 * before image. Its time is that of the transaction it precedes. The keys seen are state: {@link
 * Converted#newKeys} tells the caller which to keep, and a restarted conversion is given them
 * back, so that it never publishes a baseline for a key whose elements it already published.
 *
 * <p>Not converted, each with a reason in {@link Converted#problems} (never dropped silently): a
 * change of another table is skipped without a word; a snapshot read ({@code r}: the row as it was,
 * not a commit), a delete or a truncate (a list-append table is never shrunk), an update without a
 * before image ({@code REPLICA IDENTITY FULL} is needed) and a {@code v} that is not list text are
 * problems, and the row change contributes no operation. Not thread-safe. Memory: the keys seen.
 */
public final class ListAppendRows {
  /** The prefix of a captured transaction's {@code txnId} and {@code sessionId}: {@value}. */
  public static final String PREFIX = "cdc-";
  /** The prefix of a baseline transaction's {@code txnId} and {@code sessionId}: {@value}. */
  public static final String BASELINE_PREFIX = "cdc-baseline-";

  /**
   * What one database transaction gave.
   *
   * @param transactions the records to publish, in order: baselines first, then the transaction
   *     itself (absent when none of its row changes was of the table or convertible)
   * @param newKeys the keys this transaction showed for the first time, to be kept with the
   *     capture's position
   * @param problems one line per row change that could not be converted, naming the database
   *     transaction, the key and why
   */
  public record Converted(List<Transaction> transactions, List<String> newKeys, List<String> problems) {
    /** Copies the lists. */
    public Converted {
      transactions = List.copyOf(transactions);
      newKeys = List.copyOf(newKeys);
      problems = List.copyOf(problems);
    }
  }

  private final String historyId;
  private final String table;
  private final Set<String> seen;

  /**
   * @param historyId the {@code historyId} of every record, e.g. the database's name
   * @param table the table's name without schema, e.g. {@code isowatch_list_append}; row changes
   *     of other tables are skipped
   * @param keysSeen the keys a previous run of this capture already showed (its {@link
   *     Converted#newKeys}), empty for a new capture
   */
  public ListAppendRows(String historyId, String table, Set<String> keysSeen) {
    this.historyId = historyId;
    this.table = table;
    this.seen = new HashSet<>(keysSeen);
  }

  /**
   * @param dbTxn the database transaction ({@link RowChange#txn}: xid or GTID)
   * @param changes its row changes in stream order, all of them (a whole transaction)
   * @return its records, the keys it showed first and its problems
   */
  public Converted convert(String dbTxn, List<RowChange> changes) {
    List<Transaction> baselines = new ArrayList<>();
    List<Operation> ops = new ArrayList<>();
    List<String> newKeys = new ArrayList<>();
    List<String> problems = new ArrayList<>();
    long micros = 0;
    Long lsn = null;
    String gtid = null;
    for (RowChange row : changes) {
      if (row.timeMicros() != null && micros == 0) {
        micros = row.timeMicros();
      }
      if (row.lsn() != null) {
        lsn = row.lsn();
      }
      gtid = row.gtid() != null ? row.gtid() : gtid;
    }
    Instant time = EventTimes.instant(micros);
    for (RowChange row : changes) {
      if (!row.table().equals(table) && !row.table().endsWith("." + table)) {
        continue;
      }
      JsonImage image = images(dbTxn, row, problems);
      if (image == null) {
        continue;
      }
      if (seen.add(image.key)) {
        newKeys.add(image.key);
        if (!image.before.isEmpty()) {
          List<Operation> appends = new ArrayList<>();
          image.before.forEach(e -> appends.add(new Operation(OpKind.APPEND, image.key, e)));
          String id = BASELINE_PREFIX + image.key;
          baselines.add(new Transaction(historyId, id, id, 0L, TxnStatus.COMMITTED, appends, time, time, null));
        }
      }
      Set<Long> before = new HashSet<>(image.before);
      for (long e : new LinkedHashSet<>(image.after)) {
        if (!before.contains(e)) {
          ops.add(new Operation(OpKind.APPEND, image.key, e));
        }
      }
      ops.add(new Operation(OpKind.READ, image.key, image.after));
    }
    List<Transaction> out = new ArrayList<>(baselines);
    if (!ops.isEmpty()) {
      String id = PREFIX + dbTxn;
      out.add(new Transaction(historyId, id, id, 0L, TxnStatus.COMMITTED, ops, time, time,
          new Source(dbTxn, lsn, gtid)));
    }
    return new Converted(out, newKeys, problems);
  }

  /**
   * @param dbTxn the database transaction of {@code row}
   * @param row a row change of the table
   * @return why {@link #convert} would not convert {@code row}: the line it would add to {@link
   *     Converted#problems}; empty if it would convert it
   */
  public static Optional<String> problem(String dbTxn, RowChange row) {
    List<String> problems = new ArrayList<>(1);
    images(dbTxn, row, problems);
    return problems.stream().findFirst();
  }

  private record JsonImage(String key, List<Long> before, List<Long> after) {}

  /** @return the row's key and lists, or null with a problem added */
  private static JsonImage images(String dbTxn, RowChange row, List<String> problems) {
    String where = "database transaction " + dbTxn + ", table " + row.table();
    if (!row.op().equals("c") && !row.op().equals("u")) {
      String what = switch (row.op()) {
        case "r" -> "a snapshot read (the row as it was, not a commit)";
        case "d" -> "a delete (rows of a list-append table are never deleted)";
        case "t" -> "a truncate (rows of a list-append table are never deleted)";
        default -> "op '" + row.op() + "'";
      };
      problems.add(where + ": " + what + " is not converted");
      return null;
    }
    if (row.after() == null || !row.after().hasNonNull("k") || !row.after().hasNonNull("v")) {
      problems.add(where + ": the after image has no k or no v column");
      return null;
    }
    String key = row.after().get("k").asText();
    where += ", key " + key;
    try {
      List<Long> after = ListValues.parse(row.after().get("v").asText());
      if (row.op().equals("c")) {
        return new JsonImage(key, List.of(), after);
      }
      if (row.before() == null || !row.before().hasNonNull("v")) {
        problems.add(where + ": an update without a before image; set REPLICA IDENTITY FULL on the table");
        return null;
      }
      return new JsonImage(key, ListValues.parse(row.before().get("v").asText()), after);
    } catch (NumberFormatException e) {
      problems.add(where + ": v is not a list of decimal longs separated by commas: " + e.getMessage());
      return null;
    }
  }
}
