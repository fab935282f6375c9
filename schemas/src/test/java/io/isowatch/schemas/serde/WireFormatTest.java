package io.isowatch.schemas.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.isowatch.schemas.Samples;
import java.io.IOException;
import java.net.ServerSocket;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Choosing the format from settings, the registry URL's forms, and a registry that does not answer. */
class WireFormatTest {

  @Test
  void picksTheRegistryOnlyWhenItsUrlIsSet() {
    assertThat(WireFormat.of(Map.of())).isSameAs(WireFormat.singleObject());
    assertThat(WireFormat.of(Map.of(RegistryFormat.URL, " "))).isSameAs(WireFormat.singleObject());
    try (WireFormat f = WireFormat.of(Map.of(RegistryFormat.URL, "http://registry:8080"))) {
      assertThat(f).isInstanceOf(RegistryFormat.class);
      assertThat(((RegistryFormat) f).url()).isEqualTo("http://registry:8080/apis/registry/v2");
    }
  }

  @Test
  void addsTheApiPathUnlessTheUrlEndsWithItAndRefusesWhatIsNotARegistryUrl() {
    assertThat(RegistryFormat.apiUrl("http://r:8080")).isEqualTo("http://r:8080/apis/registry/v2");
    assertThat(RegistryFormat.apiUrl("HTTPS://r/")).isEqualTo("https://r/apis/registry/v2");
    assertThat(RegistryFormat.apiUrl("http://r:8080/apis/registry/v2/")).isEqualTo("http://r:8080/apis/registry/v2");
    assertThat(RegistryFormat.apiUrl("http://r/proxy/")).isEqualTo("http://r/proxy/apis/registry/v2");
    assertThatThrownBy(() -> RegistryFormat.apiUrl("http://user:s3cret@r:8080"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("the schema registry URL must not hold credentials; give them as apicurio.auth.username and"
            + " apicurio.auth.password in --config");
    assertThatThrownBy(() -> RegistryFormat.apiUrl("http://r:8080?x=1"))
        .hasMessage("schema registry URL 'http://r:8080?x=1' must not have a query or a fragment");
    assertThatThrownBy(() -> RegistryFormat.apiUrl("http://r:8080/apis/ccompat/v7"))
        .hasMessage("schema registry URL 'http://r:8080/apis/ccompat/v7' is Apicurio's Confluent-compatible API;"
            + " isowatch uses its v2 API: give http://HOST[:PORT] (/apis/registry/v2 is added)");
    assertThatThrownBy(() -> RegistryFormat.apiUrl("registry:8080"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("schema registry URL 'registry:8080' must be http://HOST[:PORT][/PATH] or https://...");
    assertThatThrownBy(() -> RegistryFormat.apiUrl("http://r:80 80"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("schema registry URL 'http://r:80 80' is not a URL: ");
  }

  @Test
  void singleObjectMessagesDecodeWithoutAskingTheRegistry() throws IOException {
    try (RegistryFormat f = new RegistryFormat(Map.of(RegistryFormat.URL, "http://127.0.0.1:" + closedPort()))) {
      byte[] single = RecordCodec.encode(Samples.transaction());
      assertThat(f.decode("isowatch.events", single).record()).isEqualTo(Samples.transaction());
      assertThat(f.decode("isowatch.events", new byte[] {0, 0, 1}).error())
          .isEqualTo("truncated header: 3 bytes, the registry wire format needs 5");
    }
  }

  @Test
  void aRegistryThatDoesNotAnswerIsNotADeadLetter() throws IOException {
    int port = closedPort();
    try (RegistryFormat f = new RegistryFormat(Map.of(RegistryFormat.URL, "http://127.0.0.1:" + port,
        "apicurio.registry.retry-count", "0"))) {
      assertThatThrownBy(() -> f.decode("isowatch.events", new byte[] {0, 0, 0, 0, 7, 2, 4}))
          .isInstanceOf(RegistryFormat.RegistryFailureException.class)
          .hasMessageStartingWith("cannot look up schema id 7 of a record of topic isowatch.events at the schema registry"
              + " http://127.0.0.1:" + port + "/apis/registry/v2: ConnectException");
      assertThatThrownBy(() -> f.encode("isowatch.events", Samples.transaction()))
          .isInstanceOf(RegistryFormat.RegistryFailureException.class)
          .hasMessageStartingWith("cannot register or look up the Transaction schema of topic isowatch.events at the"
              + " schema registry http://127.0.0.1:" + port + "/apis/registry/v2: ConnectException");
    }
  }

  /** @return a port nothing listens on (bound, then released) */
  private static int closedPort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }
}
