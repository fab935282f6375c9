package io.isowatch.bench.stream;

import io.isowatch.bench.family.SerialListAppendHistories;
import io.isowatch.bench.family.SerialRegisterHistories;
import io.isowatch.checker.history.History;
import io.isowatch.checker.level.Level;
import io.isowatch.stream.kafka.EmbeddedKafka;
import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;

/**
 * The scale table of the streaming benchmark: for each family (register: {@link
 * SerialRegisterHistories}, expected level causal; list-append: {@link SerialListAppendHistories},
 * expected level serializable, so that Adya's check runs) and input form, one history on an events
 * topic of two partitions through every {@link ScaleRun.Setup}, side by side, with the ratios of two
 * stream threads and of two instances to the whole check on one thread. Before the timed setups a
 * warm-up runs the split check on two threads over another history (not reported).
 */
final class ScaleTable {
  private ScaleTable() {}

  /**
   * @param transactions transactions of the history
   * @param window the checker's window
   */
  record Size(int transactions, int window) {}

  /**
   * Runs and prints the table (Markdown).
   *
   * @param families {@code register}, {@code list-append}
   * @param forms {@code whole}, {@code events}
   * @param register the register family's history and window
   * @param listAppend the list-append family's
   * @throws IOException if a state directory cannot be created
   * @throws IllegalArgumentException for an unknown family
   */
  static void run(EmbeddedKafka kafka, Properties client, Properties tuning, List<String> families, List<String> forms,
      Size register, Size listAppend, long seed) throws IOException {
    List<String> rows = new ArrayList<>();
    for (String family : families) {
      Level level = switch (family) {
        case "register" -> Level.CAUSAL;
        case "list-append" -> Level.SERIALIZABLE;
        default -> throw new IllegalArgumentException("unknown family '" + family + "': use register or list-append");
      };
      Size size = family.equals("register") ? register : listAppend;
      int transactions = size.transactions();
      ScaleRun scale = new ScaleRun(kafka, tuning, size.window(), level);
      for (String form : forms) {
        String warm = "bench.scale.warmup." + family + "." + form;
        int warmN = Math.max(2, transactions / 4);
        StreamBenchmark.publish(client, kafka, warm, 2, history(family, warmN, seed + 7), form);
        System.out.print("warm-up: ");
        scale.run(warm, warmN, ScaleRun.Setup.SPLIT_TWO_THREADS);
        String topic = "bench.scale." + family + "." + form;
        StreamBenchmark.publish(client, kafka, topic, 2, history(family, transactions, seed), form);
        Map<ScaleRun.Setup, ScaleRun.Point> points = new EnumMap<>(ScaleRun.Setup.class);
        for (ScaleRun.Setup s : ScaleRun.Setup.values()) {
          points.put(s, scale.run(topic, transactions, s));
        }
        double base = points.get(ScaleRun.Setup.WHOLE_ONE_THREAD).txnPerSecond();
        StringBuilder row = new StringBuilder(String.format(Locale.ROOT, "| %s | %s | %,d | %,d |", family, form,
            transactions, size.window()));
        for (ScaleRun.Setup s : ScaleRun.Setup.values()) {
          ScaleRun.Point p = points.get(s);
          row.append(String.format(Locale.ROOT, " %,.0f (%.1f µs) |", p.txnPerSecond(), p.streamThreadCpuMicrosPerTxn()));
        }
        row.append(String.format(Locale.ROOT, " %.2f | %.2f | %.2f |",
            points.get(ScaleRun.Setup.SPLIT_TWO_THREADS).txnPerSecond() / base,
            points.get(ScaleRun.Setup.SPLIT_TWO_INSTANCES).txnPerSecond() / base,
            points.get(ScaleRun.Setup.SPLIT_TWO_THREADS).txnPerSecond()
                / points.get(ScaleRun.Setup.SPLIT_ONE_THREAD).txnPerSecond()));
        rows.add(row.toString());
      }
    }
    System.out.println();
    System.out.println("Scale: one history, events topic of 2 partitions; txn/s of the slowest checker"
        + " (stream threads' CPU per txn, µs)");
    System.out.println();
    StringBuilder head = new StringBuilder("| family | input form | transactions | window |");
    StringBuilder rule = new StringBuilder("|---|---|---:|---:|");
    for (ScaleRun.Setup s : ScaleRun.Setup.values()) {
      head.append(' ').append(s.label).append(" |");
      rule.append("---:|");
    }
    System.out.println(head + " split 2 threads / whole 1 thread | split 2 instances / whole 1 thread | split 2 threads / split 1 thread |");
    System.out.println(rule + "---:|---:|---:|");
    rows.forEach(System.out::println);
    System.out.println();
  }

  private static History history(String family, int transactions, long seed) {
    return family.equals("register")
        ? SerialRegisterHistories.generate(SerialRegisterHistories.Shape.standard(transactions), seed)
        : SerialListAppendHistories.generate(SerialListAppendHistories.Shape.standard(transactions), seed);
  }
}
