package io.isowatch.connectors.testdb;

import java.util.function.Supplier;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * JUnit 5 extension: one private database server for a test class, started before the class's
 * first {@code @BeforeAll} method and stopped after its last test (JUnit 5 User Guide, "Extension
 * Model"). Use as
 *
 * <pre>{@code
 * @RegisterExtension
 * static final PrivateServer<PostgresServer> POSTGRES = PrivateServer.of(PostgresServer::start);
 * }</pre>
 *
 * and {@code POSTGRES.get()} in the tests. Starting fails (or, without binaries outside CI, skips)
 * as the server's own {@code start} says.
 *
 * @param <S> the kind of server
 */
public final class PrivateServer<S extends TestDatabase> implements BeforeAllCallback, AfterAllCallback {
  private final Supplier<S> starter;
  private S server;

  private PrivateServer(Supplier<S> starter) {
    this.starter = starter;
  }

  /**
   * @param starter starts the server, e.g. {@code PostgresServer::start} or {@code () ->
   *     MariaDbServer.start(true)}
   * @param <S> the kind of server
   * @return the extension, to register on a static field
   */
  public static <S extends TestDatabase> PrivateServer<S> of(Supplier<S> starter) {
    return new PrivateServer<>(starter);
  }

  /**
   * @return the running server
   * @throws IllegalStateException outside the test class's lifetime
   */
  public S get() {
    if (server == null) {
      throw new IllegalStateException("the private server runs only while its test class runs");
    }
    return server;
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    server = starter.get();
  }

  @Override
  public void afterAll(ExtensionContext context) {
    if (server != null) {
      server.close();
      server = null;
    }
  }
}
