package io.isowatch.cli;

import io.isowatch.schemas.serde.RegistryFormat;
import io.isowatch.schemas.serde.WireFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.avro.specific.SpecificRecord;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The {@code --schema-registry-url} option of {@code monitor}, {@code replay} and {@code probe}: the
 * records on the events, violations and dead-letter topics are then in the registry's wire format
 * ({@link RegistryFormat}) instead of Avro single-object encoding. The same as {@value
 * RegistryFormat#URL} in the command's {@code --config} file, which the option overrides.
 */
final class RegistryOption {
  /** What to check when the registry fails, appended to every such message. */
  static final String HINT = "; check --schema-registry-url and the apicurio.* settings in --config";

  @Spec(Spec.Target.MIXEE) private CommandSpec spec;

  @Option(names = "--schema-registry-url", paramLabel = "URL",
      description = "An Apicurio Registry 2.x, e.g. http://registry:8080 (" + RegistryFormat.API_PATH
          + " is added): records on the Kafka topics are in the registry wire format (byte 0, 4-byte"
          + " schema id, Avro binary; schemas registered per topic and record) instead of Avro"
          + " single-object encoding (the default, no registry). The same as apicurio.registry.url"
          + " in --config; credentials and TLS go there too, as apicurio.auth.* and"
          + " apicurio.registry.* settings.")
  private String url;

  /**
   * Puts the option's URL into {@code settings} (over a config file's {@value RegistryFormat#URL}),
   * then checks whichever URL {@code settings} now holds, so that a bad URL from either source is a
   * usage error.
   *
   * @param settings Kafka-style settings (from {@code --config}), changed in place
   * @throws ParameterException (exit 2) if the URL is not an http(s) URL {@link
   *     RegistryFormat#apiUrl} accepts
   */
  void applyTo(Map<? super String, Object> settings) {
    if (url != null) {
      settings.put(RegistryFormat.URL, url);
    }
    Object effective = settings.get(RegistryFormat.URL);
    if (effective == null) {
      return;
    }
    String source = url != null ? "--schema-registry-url" : RegistryFormat.URL + " in --config";
    try {
      RegistryFormat.apiUrl(effective.toString().strip());
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), source + ": " + e.getMessage());
    }
  }

  /**
   * Asks the registry {@code settings} name, if any, whether it answers ({@link RegistryFormat#ping})
   * and whether the command can write what it will write ({@link RegistryFormat#requireWritable}:
   * registers those schemas, or with auto-registration off finds them), so that a command fails at
   * start rather than at its first record.
   *
   * @param settings Kafka-style settings after {@link #applyTo}
   * @param writes the (topic, record type) pairs the command writes, each type one of {@code
   *     RecordCodec.TYPES}
   * @return empty if no registry is named or it answers and has or takes every schema of {@code
   *     writes}, else why not, ending with {@link #HINT}
   */
  static Optional<String> unusable(Map<?, ?> settings, List<Map.Entry<String, Class<? extends SpecificRecord>>> writes) {
    if (!(WireFormat.of(settings) instanceof RegistryFormat format)) {
      return Optional.empty();
    }
    try (format) {
      format.ping();
      for (Map.Entry<String, Class<? extends SpecificRecord>> w : writes) {
        format.requireWritable(w.getKey(), w.getValue());
      }
      return Optional.empty();
    } catch (RegistryFormat.RegistryFailureException e) {
      return Optional.of(e.getMessage() + HINT);
    }
  }
}
