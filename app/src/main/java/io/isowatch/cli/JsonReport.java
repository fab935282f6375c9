package io.isowatch.cli;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.isowatch.checker.LevelVerdicts;
import io.isowatch.checker.finding.Finding;
import io.isowatch.checker.finding.Findings;
import io.isowatch.checker.history.History;
import io.isowatch.checker.history.OpKind;
import io.isowatch.checker.level.Verdict;
import io.isowatch.checker.witness.Violation;
import io.isowatch.checker.witness.WitnessRenderer;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.Locale;

/**
 * The {@code --json} output of {@code isowatch check}: one object, pretty-printed.
 *
 * <pre>
 * { "file": "h.jsonl", "format": "jsonl",
 *   "levels": [ { "level": "read-committed", "verdict": "VIOLATED", "consistent": false,
 *                 "violations": [ { "kind": "commit-order-cycle", "weakestLevelBroken": "read-committed",
 *                                   "explanation": "cycle T1 -&gt; T2 -&gt; T1 (2 edges, 1 inferred commit order)",
 *                                   "witness": { "transactions": [ ... ], "operations": [ ... ], "edges": [ ... ] } } ] } ],
 *   "stats": { "transactions": 3, "operations": 7, "sessions": 2, "keys": 2,
 *              "ms": { "load": 3, "read-committed": 1, "read-uncommitted (supporting)": 0 } } }
 * </pre>
 *
 * One {@code levels[]} entry per check run, its verdict the line {@link LevelVerdicts} gives it (the
 * level's one verdict on the level's primary check); a check that found nothing on a violated line
 * has {@code because: {level, check, violation}}: the weakest level the deciding violation breaks, the
 * check that found it and its summary; {@code reason} says why a line is unknown, or consistent
 * though its check could not decide. {@code ladder} is read from the same verdicts. In {@code ms}, an
 * axiomatic check that was not run because a stronger one found the history consistent counts 0
 * ({@link io.isowatch.checker.CheckSchedule}).
 *
 * <p>A transaction is {@code {label, session, status, ops}} (label {@code "T7"}, {@code "T_init"} for
 * the initial state, which has no session, status or ops); an operation {@code {kind, key, value}}
 * with the kinds and values of {@code docs/history-format.md} ({@code r}, {@code w}, {@code append};
 * {@code null} for the initial value, a list for a list read, no value when unknown); {@code
 * operations} are the evidence operations, each with its {@code txn} label; an edge {@code {from,
 * to, type, because, key, value, via, explanation}} with labels for transactions, {@code null} when
 * there is no key, value or via. A violation shown by cases (snapshot isolation or serializable on
 * a register history) has {@code witness.cases}: {@code [{orders: [{first, second}], edges: [...]}]},
 * each case's assumed orders and the cycle they close; the field is absent otherwise. A level line
 * whose check found a commit order (the polygraph, consistent) has {@code commitOrder}: the
 * committed transactions' labels in that order, checked against the level's definition.
 */
public final class JsonReport {
  private static final ObjectMapper MAPPER = new ObjectMapper()
      .enable(SerializationFeature.INDENT_OUTPUT)
      .disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);

  private final History h;
  private final WitnessRenderer renderer;

  private JsonReport(History h) {
    this.h = h;
    this.renderer = new WitnessRenderer(h);
  }

  /** Prints the report as one JSON object followed by a newline. */
  public static void write(CheckReport report, PrintWriter out) {
    try {
      MAPPER.writeValue(out, tree(report));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    out.println();
  }

  /** @return the report as a JSON tree, in the shape described on the class */
  static ObjectNode tree(CheckReport report) {
    return new JsonReport(report.history()).build(report);
  }

  private ObjectNode build(CheckReport report) {
    ObjectNode root = MAPPER.createObjectNode();
    root.put("file", report.file().toString());
    root.put("format", report.format().cliName());
    ArrayNode levels = root.putArray("levels");
    LevelVerdicts verdicts = report.verdicts();
    for (LevelVerdicts.Line line : verdicts.lines()) {
      ObjectNode level = levels.addObject();
      level.put("level", line.check().level().cliName());
      level.put("model", line.check().model().id());
      level.put("verdict", line.verdict().name());
      level.put("consistent", line.verdict() == Verdict.CONSISTENT);
      if (line.reason() != null) {
        level.put("reason", line.reason());
      }
      if (line.cause() != null) {
        ObjectNode because = level.putObject("because");
        because.put("level", line.cause().violation().weakestLevelBroken().cliName());
        because.put("check", line.cause().check().label());
        because.put("violation", renderer.summary(line.cause().violation()));
      }
      ArrayNode violations = level.putArray("violations");
      for (Violation v : line.result().violations()) {
        violations.add(violation(v));
      }
      if (!line.result().commitOrder().isEmpty()) {
        ArrayNode order = level.putArray("commitOrder");
        for (int t : line.result().commitOrder()) {
          order.add(renderer.txnName(t));
        }
      }
    }
    if (report.ladder()) {
      ObjectNode node = root.putObject("ladder");
      node.put("strongestSatisfied", verdicts.strongestSatisfied() == null ? null : verdicts.strongestSatisfied().cliName());
      node.put("weakestBroken", verdicts.weakestBroken() == null ? null : verdicts.weakestBroken().cliName());
    }
    ObjectNode stats = root.putObject("stats");
    stats.put("transactions", h.txnCount());
    stats.put("operations", h.opCount());
    stats.put("sessions", h.sessionCount());
    stats.put("keys", h.keyCount());
    ObjectNode ms = stats.putObject("ms");
    ms.put("load", report.loadMillis());
    for (CheckReport.LevelOutcome o : report.levels()) {
      ms.put(o.label(), o.millis());
    }
    for (CheckReport.LevelOutcome o : report.supporting()) {
      ms.put(o.label() + " (supporting)", o.millis());
    }
    return root;
  }

  private ObjectNode violation(Violation v) {
    Finding f = Findings.of(h, v, renderer);
    ObjectNode node = MAPPER.createObjectNode();
    node.put("kind", f.anomaly().id());
    node.put("weakestLevelBroken", f.level().cliName());
    node.put("explanation", f.summary());
    ObjectNode witness = node.putObject("witness");
    ArrayNode txns = witness.putArray("transactions");
    for (Finding.Txn t : f.txns()) {
      txns.add(transaction(t));
    }
    ArrayNode ops = witness.putArray("operations");
    for (Finding.Evidence e : f.evidence()) {
      ops.add(operation(e.op()).put("txn", e.txn()));
    }
    ArrayNode edges = witness.putArray("edges");
    for (Finding.Arrow a : f.edges()) {
      edges.add(edge(a));
    }
    ArrayNode support = witness.putArray("support");
    for (Finding.Arrow a : f.support()) {
      support.add(edge(a));
    }
    if (!f.cases().isEmpty()) {
      ArrayNode cases = witness.putArray("cases");
      for (Finding.Case c : f.cases()) {
        ObjectNode one = cases.addObject();
        ArrayNode orders = one.putArray("orders");
        for (Finding.Order o : c.orders()) {
          orders.addObject().put("first", o.first()).put("second", o.second());
        }
        ArrayNode cycle = one.putArray("edges");
        for (Finding.Arrow a : c.cycle()) {
          cycle.add(edge(a));
        }
      }
    }
    return node;
  }

  private static ObjectNode transaction(Finding.Txn t) {
    ObjectNode node = MAPPER.createObjectNode();
    node.put("label", t.name());
    if (t.isInitial()) {
      node.putNull("session");
      node.putNull("status");
      node.putArray("ops");
      return node;
    }
    node.put("session", t.session());
    node.put("status", t.status().name().toLowerCase(Locale.ROOT));
    ArrayNode ops = node.putArray("ops");
    for (Finding.Op op : t.ops()) {
      ops.add(operation(op));
    }
    return node;
  }

  private static ObjectNode operation(Finding.Op op) {
    ObjectNode node = MAPPER.createObjectNode();
    byte kind = op.kind();
    node.put("kind", kind == OpKind.APPEND ? "append" : OpKind.shortName(kind));
    node.put("key", op.key());
    if (kind == OpKind.READ_LIST) {
      if (op.list() != null) {
        ArrayNode list = node.putArray("value");
        op.list().forEach(list::add);
      }
    } else if (op.value() == History.NIL) {
      node.putNull("value");
    } else if (op.value() != History.UNKNOWN_VALUE) {
      node.put("value", op.value());
    }
    return node;
  }

  private static ObjectNode edge(Finding.Arrow a) {
    ObjectNode node = MAPPER.createObjectNode();
    node.put("from", a.from());
    node.put("to", a.to());
    node.put("type", a.type().id());
    node.put("because", a.because().name().toLowerCase(Locale.ROOT).replace('_', '-'));
    node.put("key", a.key());
    if (a.value() == null) {
      node.putNull("value");
    } else {
      node.put("value", a.value());
    }
    node.put("via", a.via());
    node.put("explanation", a.explanation());
    return node;
  }
}
