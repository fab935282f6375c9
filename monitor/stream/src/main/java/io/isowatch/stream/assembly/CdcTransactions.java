package io.isowatch.stream.assembly;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.isowatch.schemas.Transaction;
import io.isowatch.schemas.debezium.Envelope;
import io.isowatch.schemas.debezium.ListAppendRows;
import io.isowatch.schemas.debezium.RowChange;
import io.isowatch.schemas.debezium.TxBoundary;
import io.isowatch.stream.config.DebeziumCdc;
import io.isowatch.stream.metrics.MonitorMetrics;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Debezium's change events of a list-append table and its connector's transaction-metadata records
 * ({@code monitor --input debezium-cdc}), turned into the {@link Transaction} records the monitor
 * checks: each database transaction once it is whole, in commit order, converted exactly as {@code
 * capture --cdc} converts it ({@link ListAppendRows}: appends from the before and after images, a
 * read of each row's after list, baselines for elements a row held before the key was first seen).
 *
 * <p><b>Whole, in commit order.</b> The table's topic has one partition (checked at start), on which
 * the connector writes the transactions one after the other in commit order (PostgreSQL's logical
 * decoding emits a transaction's changes together at its commit; PostgreSQL 15 manual, 49.1
 * "Logical Decoding Concepts"). Transactions are queued in the order their first change arrives, and
 * the head of the queue is emitted when its metadata {@code END} has arrived and as many of its
 * changes as {@code END} counts for this table ({@link TxBoundary#eventCountOf}), or when a change of
 * a later transaction has arrived (which the order above makes impossible before the head is whole),
 * whichever comes first. Emitting in commit order is what makes baselines sound: a row's before image
 * at its key's first emitted transaction holds only elements of transactions committed earlier, and
 * none of those is still to come.
 *
 * <p><b>What is not taken.</b> A change of another table is counted ({@link
 * MonitorMetrics#debeziumSkipped} {@code other-table}); {@code BEGIN} records and {@code END} records
 * that count no change of the table likewise ({@code transaction-metadata}). A change the conversion
 * cannot use (a delete, a truncate, a snapshot read, an update without a before image, a {@code v}
 * that is not list text) is returned as a rejection ({@code bad-row}, naming why) and contributes no
 * operation; it still counts towards its transaction's {@code END}. A change identical to one held
 * for the same transaction (the connector delivering it again) is ignored and counted ({@link
 * MonitorMetrics#duplicateIgnored()}).
 *
 * <p><b>Each once.</b> A change the connector delivers again after a restart from its last
 * committed offset (Kafka Connect delivers at least once) is recognised by its place in the
 * connector's order, PostgreSQL's {@code source.sequence} ({@link RowChange#after}): at or before the
 * last change taken, it is dropped and counted ({@code redelivered}), whether its transaction was
 * emitted or not, whole or in part. Without {@code sequence} (other connectors) a change of a
 * transaction emitted in the last {@link #HORIZON} queue positions is recognised by its
 * transaction's id, and the checker's own refusal of a repeated transaction id or write ({@code
 * duplicate-txn}, {@code duplicate-write}) is the last guard. So the transactions emitted go to the
 * checker directly, without the session machinery (each is alone in its session, and a session's
 * state for every database transaction would fill {@code max-sessions-per-history}).
 *
 * <p>State, in store {@link AssemblerStores#CDC} (changelogged like the others, so that a restart
 * resumes the queue where the committed offsets leave it): {@code n} and {@code h}, the next and the
 * head queue positions; {@code w}, the place of the last change taken; {@code q<position>} to a
 * queued database transaction; {@code t<NUL><txn>} to its changes so far; {@code e<NUL><txn>} to its
 * {@code END}'s count, and {@code o<position><NUL><txn>} for an {@code END} that arrived before any
 * change of its transaction (forgotten {@link #HORIZON} positions later if none came); {@code
 * x<NUL><txn>} and {@code X<position>} for each transaction emitted in the last {@link #HORIZON}
 * positions; {@code k<NUL><key>} for every key emitted, so that a key's baseline is emitted once.
 * Memory: the transactions not yet emitted, and the keys in the store. Not thread-safe, like the
 * task that owns it.
 */
final class CdcTransactions {
  private static final ObjectMapper JSON = new ObjectMapper();
  /**
   * How many queue positions an {@code END} with no change of its transaction is kept (the lead the
   * metadata topic may have over the table's topic in this task: Kafka Streams picks the next record
   * of a task by timestamp across its partitions, so the two stay close), and an emitted
   * transaction's id is remembered (to recognise its changes delivered again where they carry no
   * place in the connector's order).
   */
  static final long HORIZON = 100_000;

  /**
   * What one change event gave.
   *
   * @param transactions the transactions it made whole, in commit order, baselines before the
   *     transaction they precede; each to go to the checker stage
   * @param rejection why the event itself is a dead letter ({@code bad-row}), or null
   */
  record Taken(List<Transaction> transactions, Rejection rejection) {}

  private final KeyValueStore<String, byte[]> store;
  private final DebeziumCdc cdc;
  private final MonitorMetrics metrics;

  /**
   * @param store the {@link AssemblerStores#CDC} store
   * @param cdc the table and historyId
   * @param metrics where skipped and repeated events are counted
   */
  CdcTransactions(KeyValueStore<String, byte[]> store, DebeziumCdc cdc, MonitorMetrics metrics) {
    this.store = store;
    this.cdc = cdc;
    this.metrics = metrics;
  }

  /**
   * @param e a decoded change event of the table's topic or of the transaction-metadata topic
   * @return the transactions it made whole and whether it is itself a dead letter
   */
  Taken accept(Envelope e) {
    Rejection rejection = null;
    if (e instanceof RowChange row) {
      if (!ofTable(row.table())) {
        metrics.debeziumSkipped("other-table");
        return new Taken(List.of(), null);
      }
      if (!inOrder(row) || store.get(emittedKey(row.txn())) != null) {
        metrics.debeziumSkipped("redelivered");
        return new Taken(List.of(), null);
      }
      rejection = ListAppendRows.problem(row.txn(), row).map(why -> new Rejection("bad-row", why)).orElse(null);
      if (!hold(row)) {
        metrics.duplicateIgnored();
        return new Taken(List.of(), rejection);
      }
    } else if (e instanceof TxBoundary b && b.end() && b.eventCountOf(cdc.table()) > 0) {
      long count = b.eventCountOf(cdc.table());
      store.put(endKey(b.txn()), ByteBuffer.allocate(Long.BYTES).putLong(count).array());
      if (store.get(changesKey(b.txn())) == null) {
        store.put(orphanKey(position("n"), b.txn()), new byte[0]);
      }
    } else {
      metrics.debeziumSkipped("transaction-metadata");
      return new Taken(List.of(), null);
    }
    return new Taken(drain(), rejection);
  }

  private boolean ofTable(String table) {
    return table.equals(cdc.table()) || table.endsWith("." + cdc.table());
  }

  /**
   * @return false if {@code row} has a place in the connector's order ({@link RowChange#after}) at or
   *     before the last change taken, that is the connector delivers it again (after a restart from
   *     its last committed offset); true otherwise, after recording its place
   */
  private boolean inOrder(RowChange row) {
    if (row.lastCommitLsn() == null || row.lsn() == null) {
      return true;
    }
    byte[] w = store.get("w");
    ByteBuffer last = w == null ? null : ByteBuffer.wrap(w);
    if (last != null && !row.after(last.getLong(0), last.getLong(8))) {
      return false;
    }
    store.put("w", ByteBuffer.allocate(2 * Long.BYTES).putLong(row.lastCommitLsn()).putLong(row.lsn()).array());
    return true;
  }

  /** Adds {@code row} to its transaction, queueing a new one; @return false if it was held already */
  private boolean hold(RowChange row) {
    byte[] encoded = encode(row);
    String key = changesKey(row.txn());
    byte[] held = store.get(key);
    List<byte[]> changes = held == null ? new ArrayList<>() : decodeList(held);
    for (byte[] c : changes) {
      if (Arrays.equals(c, encoded)) {
        return false;
      }
    }
    if (held == null) {
      long next = position("n");
      store.put(queueKey(next), row.txn().getBytes(StandardCharsets.UTF_8));
      store.put("n", ByteBuffer.allocate(Long.BYTES).putLong(next + 1).array());
    }
    changes.add(encoded);
    store.put(key, encodeList(changes));
    return true;
  }

  /** Emits the head of the queue while it is whole. */
  private List<Transaction> drain() {
    List<Transaction> out = new ArrayList<>();
    long head = position("h");
    long next = position("n");
    while (head < next) {
      String txn = new String(store.get(queueKey(head)), StandardCharsets.UTF_8);
      List<byte[]> changes = decodeList(store.get(changesKey(txn)));
      byte[] end = store.get(endKey(txn));
      boolean whole = head + 1 < next || end != null && changes.size() >= ByteBuffer.wrap(end).getLong();
      if (!whole) {
        break;
      }
      out.addAll(emit(txn, changes));
      store.put(emittedKey(txn), new byte[0]);
      store.put(emittedAtKey(head), txn.getBytes(StandardCharsets.UTF_8));
      store.delete(queueKey(head));
      store.delete(changesKey(txn));
      store.delete(endKey(txn));
      head++;
      store.put("h", ByteBuffer.allocate(Long.BYTES).putLong(head).array());
    }
    forgetOrphans(next);
    forgetEmitted(head);
    return out;
  }

  /** Forgets the ids of transactions emitted more than {@link #HORIZON} queue positions before {@code head}. */
  private void forgetEmitted(long head) {
    if (head <= HORIZON) {
      return;
    }
    List<String> old = new ArrayList<>();
    try (var it = store.range("X", emittedAtKey(head - HORIZON))) {
      it.forEachRemaining(kv -> {
        old.add(kv.key);
        old.add(emittedKey(new String(kv.value, StandardCharsets.UTF_8)));
      });
    }
    old.forEach(store::delete);
  }

  /**
   * Forgets the {@code END}s that arrived before any change of their transaction more than {@link
   * #HORIZON} queue positions ago and still have none: their transaction was emitted before
   * its {@code END} arrived (closed by a later one), or has no change of the table.
   */
  private void forgetOrphans(long next) {
    if (next <= HORIZON) {
      return;
    }
    List<String> old = new ArrayList<>();
    try (var it = store.range("o", orphanKey(next - HORIZON, ""))) {
      it.forEachRemaining(kv -> old.add(kv.key));
    }
    for (String key : old) {
      String txn = key.substring(key.indexOf('\0') + 1);
      if (store.get(changesKey(txn)) == null) {
        store.delete(endKey(txn));
      }
      store.delete(key);
    }
  }

  private List<Transaction> emit(String txn, List<byte[]> encoded) {
    List<RowChange> rows = new ArrayList<>(encoded.size());
    Set<String> seen = new HashSet<>();
    for (byte[] b : encoded) {
      RowChange row = decode(b);
      rows.add(row);
      JsonNode k = row.after() == null ? null : row.after().get("k");
      if (k != null && !k.isNull() && store.get(seenKey(k.asText())) != null) {
        seen.add(k.asText());
      }
    }
    ListAppendRows.Converted converted = new ListAppendRows(cdc.historyId(), cdc.table(), seen).convert(txn, rows);
    for (String key : converted.newKeys()) {
      store.put(seenKey(key), new byte[0]);
    }
    return converted.transactions();
  }

  private long position(String name) {
    byte[] b = store.get(name);
    return b == null ? 0 : ByteBuffer.wrap(b).getLong();
  }

  private static String queueKey(long position) {
    return "q" + AssemblerStores.padded(position, 19);
  }

  private static String changesKey(String txn) {
    return "t\0" + txn;
  }

  private static String endKey(String txn) {
    return "e\0" + txn;
  }

  private static String emittedKey(String txn) {
    return "x\0" + txn;
  }

  private static String emittedAtKey(long position) {
    return "X" + AssemblerStores.padded(position, 19);
  }

  private static String orphanKey(long position, String txn) {
    return "o" + AssemblerStores.padded(position, 19) + "\0" + txn;
  }

  private static String seenKey(String key) {
    return "k\0" + key;
  }

  /** @return the row change as a JSON object of its fields, the form it is held in */
  static byte[] encode(RowChange row) {
    ObjectNode o = JSON.createObjectNode();
    o.put("connector", row.connector());
    o.put("txn", row.txn());
    o.put("table", row.table());
    o.put("op", row.op());
    o.set("before", row.before());
    o.set("after", row.after());
    o.put("lsn", row.lsn());
    o.put("gtid", row.gtid());
    o.put("time", row.timeMicros());
    o.put("lastCommit", row.lastCommitLsn());
    try {
      return JSON.writeValueAsBytes(o);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** @return what {@link #encode} wrote */
  static RowChange decode(byte[] bytes) {
    JsonNode o;
    try {
      o = JSON.readTree(bytes);
    } catch (IOException e) {
      throw new UncheckedIOException("a held row change is not the JSON it was stored as", e);
    }
    return new RowChange(o.get("connector").asText(), o.get("txn").asText(), o.get("table").asText(),
        o.get("op").asText(), nullable(o.get("before")), nullable(o.get("after")),
        o.get("lsn").isNull() ? null : o.get("lsn").asLong(), o.get("gtid").isNull() ? null : o.get("gtid").asText(),
        o.get("time").isNull() ? null : o.get("time").asLong(),
        o.get("lastCommit").isNull() ? null : o.get("lastCommit").asLong());
  }

  private static JsonNode nullable(JsonNode n) {
    return n == null || n.isNull() ? null : n;
  }

  private static byte[] encodeList(List<byte[]> items) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] item : items) {
      out.writeBytes(ByteBuffer.allocate(Integer.BYTES).putInt(item.length).array());
      out.writeBytes(item);
    }
    return out.toByteArray();
  }

  private static List<byte[]> decodeList(byte[] bytes) {
    List<byte[]> items = new ArrayList<>();
    ByteBuffer in = ByteBuffer.wrap(bytes);
    while (in.hasRemaining()) {
      byte[] item = new byte[in.getInt()];
      in.get(item);
      items.add(item);
    }
    return items;
  }
}
