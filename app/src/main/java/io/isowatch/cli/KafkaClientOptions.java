package io.isowatch.cli;

import io.isowatch.stream.app.MonitorApp;
import io.isowatch.stream.config.MonitorConfig;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Properties;
import picocli.CommandLine.IModelTransformer;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The Kafka client options of {@code monitor}, {@code replay} and {@code probe}: the brokers
 * ({@code --bootstrap-servers}, required but for {@code probe}, which publishes only when given
 * them: {@link BrokersOptional}), the client settings file ({@code --config}, Java properties) and the
 * events topic ({@code --events-topic}). The schema registry's option is {@link RegistryOption},
 * applied to the settings read here.
 */
final class KafkaClientOptions {
  private static final String BOOTSTRAP_SERVERS = "--bootstrap-servers";

  @Spec(Spec.Target.MIXEE) private CommandSpec spec;

  @Option(names = BOOTSTRAP_SERVERS, required = true, paramLabel = "HOST:PORT",
      description = "Kafka brokers to connect to, comma separated.")
  private String bootstrapServers;

  @Option(names = "--config", paramLabel = "FILE",
      description = "Kafka client settings (Java properties), e.g. security.protocol=SASL_SSL with its"
          + " sasl.* and ssl.* settings; isowatch monitor takes any Kafka Streams setting too.")
  private Path config;

  /**
   * No {@code defaultValue}: picocli would apply it after the arguments, over a value {@code probe}'s
   * {@code --topic} set ({@link #eventsTopic(String)}); {@link #eventsTopic()} gives the default.
   */
  @Option(names = "--events-topic", paramLabel = "TOPIC",
      description = "The events topic, where transactions are published and the monitor reads them"
          + " (default: " + MonitorConfig.EVENTS + ").")
  private String eventsTopic;

  /** @return {@code --bootstrap-servers}, or {@code null} when not given (only {@code probe} allows that) */
  String bootstrapServers() {
    return bootstrapServers;
  }

  /** @return {@code --config}, or {@code null} */
  Path config() {
    return config;
  }

  /** @return {@code --events-topic}, by default {@value MonitorConfig#EVENTS} */
  String eventsTopic() {
    return eventsTopic == null ? MonitorConfig.EVENTS : eventsTopic;
  }

  /**
   * Sets the events topic: {@code probe}'s {@code --topic}, its earlier name of {@code --events-topic}.
   *
   * @param topic the topic
   */
  void eventsTopic(String topic) {
    this.eventsTopic = topic;
  }

  /**
   * @return the settings of the {@code --config} file ({@link MonitorApp#readConfigFile}), none without
   *     one
   * @throws IOException if the file cannot be read (missing, unreadable)
   */
  Properties configFile() throws IOException {
    return config == null ? new Properties() : MonitorApp.readConfigFile(config);
  }

  /**
   * @return {@link #configFile()}
   * @throws ParameterException (exit 2) {@code --config FILE: cannot read (EXCEPTION)} if the file
   *     cannot be read
   */
  Properties configFileOrUsageError() {
    try {
      return configFile();
    } catch (IOException e) {
      throw new ParameterException(spec.commandLine(), "--config " + config + ": cannot read (" + e + ")");
    }
  }

  /**
   * Makes {@code --bootstrap-servers} optional in the command it transforms ({@code probe}), keeping
   * everything else of the option.
   */
  static final class BrokersOptional implements IModelTransformer {
    @Override
    public CommandSpec transform(CommandSpec command) {
      OptionSpec required = command.findOption(BOOTSTRAP_SERVERS);
      command.remove(required);
      command.addOption(required.toBuilder().required(false).build());
      return command;
    }
  }
}
