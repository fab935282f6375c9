package io.isowatch.stream.kafka;

import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ExtensionContext.Namespace;

/**
 * JUnit 5 fixture: one real Kafka broker shared by every test class of the run that uses it
 * ({@code @ExtendWith(KafkaBroker.class)}, then {@link #bootstrapServers()}), closed when the run
 * ends (root-store {@code AutoCloseable}, JUnit 5 user guide, "Keeping State in Extensions").
 *
 * <p>The broker is an {@link EmbeddedKafka} (Kafka's own in-process KRaft test kit). The
 * Testcontainers Kafka module would be preferred where a Docker engine answers, but {@code
 * org.testcontainers:testcontainers-kafka} is not in this build's offline repository and this
 * machine has no Docker engine, so the fixture has a single implementation; every test using it
 * runs everywhere (never skipped, also under {@code CI=true}). Tests must use their own topic
 * names and application ids, since the broker is shared.
 */
public final class KafkaBroker implements BeforeAllCallback {
  private static final Namespace NAMESPACE = Namespace.create(KafkaBroker.class);
  private static volatile EmbeddedKafka kafka;

  @Override
  public void beforeAll(ExtensionContext context) {
    context.getRoot().getStore(NAMESPACE).getOrComputeIfAbsent("broker", k -> {
      kafka = EmbeddedKafka.start();
      return (AutoCloseable) () -> kafka.close();
    }, AutoCloseable.class);
  }

  /** @return the shared broker's {@code host:port} */
  public static String bootstrapServers() {
    return broker().bootstrapServers();
  }

  /** @return the shared broker */
  public static EmbeddedKafka broker() {
    if (kafka == null) {
      throw new IllegalStateException("annotate the test class with @ExtendWith(KafkaBroker.class)");
    }
    return kafka;
  }
}
