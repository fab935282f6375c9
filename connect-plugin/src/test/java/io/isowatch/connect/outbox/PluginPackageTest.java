package io.isowatch.connect.outbox;

import static org.assertj.core.api.Assertions.assertThat;

import io.isowatch.connect.worker.Plugins;
import io.isowatch.schemas.OpKind;
import io.isowatch.schemas.Operation;
import io.isowatch.schemas.Transaction;
import io.isowatch.schemas.TxnStatus;
import io.isowatch.schemas.serde.RecordCodec;
import java.io.InputStream;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.runtime.isolation.PluginClassLoader;
import org.apache.kafka.connect.source.SourceRecord;
import org.apache.kafka.connect.transforms.Transformation;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The packaged plugin, {@code deploy/connect/isowatch-connect-plugin.zip}, as a Connect worker
 * loads it from {@code plugin.path}: unzipped into a directory, its jars in Connect's own isolating
 * {@link PluginClassLoader} (child first, Connect's API from the worker). The transform is listed
 * in the zip's service manifest (which {@code plugin.discovery=service_load} reads), is loaded from
 * the zip rather than from this build's classes, and turns an outbox insert into a Transaction
 * record with only the zip's jars: nothing it needs is missing. Runs in the {@code
 * integration-test} phase, after {@code package} wrote the zip (tag {@code plugin-package}, see the pom).
 */
@Tag("plugin-package")
class PluginPackageTest {
  @Test
  void theZipHoldsEverythingTheTransformNeedsAndNothingTheWorkerProvides(@TempDir Path plugins) throws Exception {
    List<String> jars = Plugins.unzip(Plugins.ZIP, plugins);
    assertThat(jars).allMatch(j -> j.startsWith("isowatch-connect-plugin/") && j.endsWith(".jar"))
        .anyMatch(j -> j.contains("isowatch-connect-plugin-")).anyMatch(j -> j.contains("isowatch-schemas-"))
        .anyMatch(j -> j.contains("/avro-"))
        .noneMatch(j -> j.contains("connect-api") || j.contains("kafka-clients") || j.contains("slf4j")
            || j.contains("debezium") || j.contains("isowatch-checker"));

    Path dir = plugins.resolve("isowatch-connect-plugin");
    List<URL> urls = new ArrayList<>();
    try (Stream<Path> files = Files.list(dir)) {
      for (Path jar : files.sorted().toList()) {
        urls.add(jar.toUri().toURL());
      }
    }
    try (PluginClassLoader loader = new PluginClassLoader(dir.toUri().toURL(), urls.toArray(URL[]::new),
        PluginPackageTest.class.getClassLoader())) {
      String manifest = "META-INF/services/" + Transformation.class.getName();
      List<String> listed = new ArrayList<>();
      for (URL url : java.util.Collections.list(loader.getResources(manifest))) {
        if (url.toString().contains(dir + "/")) {
          try (InputStream in = url.openStream()) {
            listed.add(new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).strip());
          }
        }
      }
      assertThat(listed).containsExactly(OutboxTransactionRouter.class.getName());
      @SuppressWarnings("unchecked")
      Transformation<SourceRecord> router = (Transformation<SourceRecord>) loader
          .loadClass(OutboxTransactionRouter.class.getName()).getConstructor().newInstance();
      assertThat(router.getClass().getClassLoader()).isSameAs(loader);
      assertThat(router.getClass()).isNotSameAs(OutboxTransactionRouter.class);

      router.configure(Map.of(OutboxTransactionRouter.EVENTS_TOPIC, "app.events"));
      Transaction txn = new Transaction("shop", "s1", "shop/s1/0", 0L, TxnStatus.COMMITTED,
          List.of(new Operation(OpKind.WRITE, "x", 1L)), Instant.parse("2026-12-02T10:00:00Z"),
          Instant.parse("2026-12-02T10:00:01Z"), null);
      SourceRecord out = router.apply(insert(RecordCodec.encode(txn)));
      router.close();

      assertThat(out.topic()).isEqualTo("app.events");
      assertThat(out.key()).isEqualTo("shop/s1");
      Transaction read = (Transaction) RecordCodec.decode((byte[]) out.value()).record();
      assertThat(read.getTxnId()).isEqualTo("shop/s1/0");
      assertThat(read.getSource().getDbTxnId()).isEqualTo("9");
      assertThat(read.getSource().getLsn()).isEqualTo(400L);
    }
  }

  private static SourceRecord insert(byte[] record) {
    Schema source = SchemaBuilder.struct().field("table", Schema.STRING_SCHEMA)
        .field("txId", Schema.INT64_SCHEMA).field("lsn", Schema.INT64_SCHEMA).build();
    Schema row = SchemaBuilder.struct().optional().field("record", Schema.BYTES_SCHEMA).build();
    Schema envelope = SchemaBuilder.struct().field("before", row).field("after", row).field("source", source)
        .field("op", Schema.STRING_SCHEMA).build();
    Struct value = new Struct(envelope).put("after", new Struct(row).put("record", record))
        .put("source", new Struct(source).put("table", "isowatch_outbox").put("txId", 9L).put("lsn", 400L))
        .put("op", "c");
    return new SourceRecord(Map.of(), Map.of(), "pg.public.isowatch_outbox", envelope, value);
  }
}
