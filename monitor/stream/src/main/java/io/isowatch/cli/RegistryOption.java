package io.isowatch.cli;

import io.isowatch.schemas.serde.RegistryFormat;
import java.util.Map;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The {@code --schema-registry-url} option of {@code monitor}, {@code replay} and {@code probe}: the
 * records on the events, violations and dead-letter topics are then in the registry's wire format
 * ({@link RegistryFormat}) instead of Avro single-object encoding.
 */
final class RegistryOption {
  @Spec(Spec.Target.MIXEE) private CommandSpec spec;

  @Option(names = "--schema-registry-url", paramLabel = "URL",
      description = "An Apicurio Registry (v2 API, e.g. http://registry:8080; the path"
          + " " + RegistryFormat.API_PATH + " is added to a URL without one): records are written"
          + " in the registry wire format (magic byte 0, 4-byte schema id, Avro binary; schemas"
          + " registered per topic and record) and both formats are read. Default: none, Avro"
          + " single-object encoding. Other registry settings (auth, TLS) go in --config as"
          + " apicurio.registry.* properties.")
  private String url;

  /**
   * Puts {@value RegistryFormat#URL} into {@code settings} when the option is given, so that {@link
   * io.isowatch.schemas.serde.WireFormat#of} picks the registry.
   *
   * @param settings Kafka-style settings (from {@code --config}), changed in place
   * @throws ParameterException (exit 2) if the URL is not an http(s) URL
   */
  void applyTo(Map<? super String, Object> settings) {
    if (url == null) {
      return;
    }
    try {
      RegistryFormat.apiUrl(url);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), "--schema-registry-url: " + e.getMessage());
    }
    settings.put(RegistryFormat.URL, url);
  }
}
