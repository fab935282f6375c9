package io.isowatch.cli.endtoend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.isowatch.checker.level.Level;
import io.isowatch.stream.app.ExactOutput;
import io.isowatch.stream.config.MonitorConfig;
import io.isowatch.stream.kafka.EmbeddedKafka;
import io.isowatch.stream.kafka.Topics;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.config.SslConfigs;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Security: a broker whose only client listener requires SASL/SCRAM-SHA-256 over TLS and
 * authorises with ACLs ({@code StandardAuthorizer}, nothing allowed without an ACL). {@code
 * isowatch monitor} gets its credentials and trust store only from its {@code --config} file and
 * runs the whole pipeline as principal {@code User:monitor}, which may read the events topic,
 * write the violations and dead-letter topics, and use what Kafka Streams needs under its
 * application id (internal topics, consumer group and transactional ids with that prefix), nothing
 * else. The output is exact; a client with no credentials or a wrong password is refused, and the
 * monitor's principal may not read another topic.
 *
 * <p>The broker's certificate (self-signed, {@code CN=localhost}, SAN {@code localhost,
 * 127.0.0.1}) is made by the JDK's {@code keytool}. The broker itself talks to itself (transaction
 * markers) as super user {@code User:broker} with SASL/PLAIN over the same TLS listener.
 */
class SecureMonitorTest {
  private static final String STORE_PASSWORD = "store-secret";
  private static final String MONITOR_PASSWORD = "monitor-secret";
  private static final String BROKER_PASSWORD = "broker-secret";
  private static final String SCRAM_LOGIN = "org.apache.kafka.common.security.scram.ScramLoginModule";
  private static final String PLAIN_LOGIN = "org.apache.kafka.common.security.plain.PlainLoginModule";

  @TempDir Path tmp;

  @Test
  void theMonitorRunsWithScramOverTlsAndOnlyItsAclsAndAnonymousClientsAreRefused() throws Exception {
    String prefix = "it-secure";
    String appId = prefix + "-app";
    MonitorConfig config = MonitorConfig.defaults()
        .withTopics(prefix + ".events", prefix + ".violations", prefix + ".dlq")
        .withExpectedLevel(Level.SERIALIZABLE);
    ExactOutput.Workload run = ExactOutput.writeSkews("h-secure-", 1, 200, 53);
    Map<String, String> expected = ExactOutput.uninterrupted(config, run.events(), tmp.resolve("reference"));
    assertThat(expected.values()).containsExactlyInAnyOrderElementsOf(run.expected()).isNotEmpty();

    Path keystore = tmp.resolve("broker.p12");
    Path truststore = tmp.resolve("trust.p12");
    makeStores(keystore, truststore);
    Properties superUser = tls(truststore);
    superUser.setProperty(SaslConfigs.SASL_MECHANISM, "PLAIN");
    superUser.setProperty(SaslConfigs.SASL_JAAS_CONFIG,
        PLAIN_LOGIN + " required username=\"broker\" password=\"" + BROKER_PASSWORD + "\";");
    try (EmbeddedKafka kafka = EmbeddedKafka.start(brokerSettings(keystore, truststore), superUser)) {
      Admin admin = kafka.admin();
      admin.alterUserScramCredentials(List.of(new UserScramCredentialUpsertion("monitor",
          new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_256, 4096), MONITOR_PASSWORD))).all().get();
      Topics.create(admin, Topics.of(config), Optional.of(2), Optional.of((short) 1), Optional.empty());
      Topics.create(admin, List.of(prefix + ".secret"), Optional.of(1), Optional.of((short) 1), Optional.empty());
      admin.createAcls(monitorAcls(config, appId)).all().get();

      Properties monitor = tls(truststore);
      monitor.setProperty(SaslConfigs.SASL_MECHANISM, "SCRAM-SHA-256");
      monitor.setProperty(SaslConfigs.SASL_JAAS_CONFIG, scram("monitor", MONITOR_PASSWORD));
      Path configFile = tmp.resolve("monitor.properties");
      try (var out = Files.newBufferedWriter(configFile, StandardCharsets.UTF_8)) {
        monitor.store(out, "isowatch monitor: SASL/SCRAM over TLS");
      }
      Properties publisher = new Properties();
      publisher.putAll(superUser);
      publisher.setProperty(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
      MonitorProcess process = MonitorProcess.start(tmp.resolve("monitor.log"), kafka.bootstrapServers(), appId,
          config, tmp.resolve("state"), configFile);
      try {
        ExactOutput.publish(publisher, config.eventsTopic(), run.events());
        ExactOutput.awaitExactly(admin, publisher, config, appId, expected);
        assertThat(process.alive()).as("the monitor runs (see %s)", tmp.resolve("monitor.log")).isTrue();
      } finally {
        process.kill();
      }

      Properties monitorClient = new Properties();
      monitorClient.putAll(monitor);
      monitorClient.setProperty(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
      assertThatThrownBy(() -> ExactOutput.violations(monitorClient, prefix + ".secret"))
          .isInstanceOf(TopicAuthorizationException.class);
      Properties wrongPassword = new Properties();
      wrongPassword.putAll(monitorClient);
      wrongPassword.setProperty(SaslConfigs.SASL_JAAS_CONFIG, scram("monitor", "guess"));
      assertThatThrownBy(() -> listTopics(wrongPassword)).hasRootCauseInstanceOf(SaslAuthenticationException.class);
      Properties anonymous = tls(truststore);
      anonymous.setProperty(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "SSL");
      anonymous.setProperty(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
      assertThatThrownBy(() -> listTopics(anonymous)).isInstanceOf(ExecutionException.class);
      System.out.printf("SecureMonitorTest: SASL_SSL with SCRAM-SHA-256, %d ACLs for User:monitor; %d violations,"
          + " each once; refused: a topic outside the ACLs, a wrong password, a TLS client without SASL%n",
          monitorAcls(config, appId).size(), expected.size());
    }
  }

  /** Broker settings: the client listener is SASL_SSL with SCRAM-SHA-256 for clients and PLAIN for the broker. */
  private static Map<String, String> brokerSettings(Path keystore, Path truststore) {
    Map<String, String> s = new java.util.HashMap<>();
    s.put("listener.security.protocol.map", "EXTERNAL:SASL_SSL,CONTROLLER:PLAINTEXT");
    s.put("sasl.enabled.mechanisms", "SCRAM-SHA-256,PLAIN");
    s.put("sasl.mechanism.inter.broker.protocol", "PLAIN");
    s.put("listener.name.external.plain.sasl.jaas.config", PLAIN_LOGIN + " required username=\"broker\" password=\""
        + BROKER_PASSWORD + "\" user_broker=\"" + BROKER_PASSWORD + "\";");
    s.put("listener.name.external.scram-sha-256.sasl.jaas.config", SCRAM_LOGIN + " required;");
    s.put("ssl.keystore.location", keystore.toString());
    s.put("ssl.keystore.password", STORE_PASSWORD);
    s.put("ssl.keystore.type", "PKCS12");
    s.put("ssl.truststore.location", truststore.toString());
    s.put("ssl.truststore.password", STORE_PASSWORD);
    s.put("ssl.truststore.type", "PKCS12");
    s.put("authorizer.class.name", "org.apache.kafka.metadata.authorizer.StandardAuthorizer");
    s.put("allow.everyone.if.no.acl.found", "false");
    s.put("super.users", "User:broker;User:ANONYMOUS");
    return s;
  }

  /**
   * The monitor's ACLs: read the events topic; write the violations and dead-letter topics; under
   * its application id, everything on its internal topics, its consumer group and its
   * transactional ids (Kafka Streams documentation, "Secure Kafka Streams: required ACL setting").
   */
  private static List<AclBinding> monitorAcls(MonitorConfig config, String appId) {
    List<AclBinding> acls = new ArrayList<>();
    acls.add(allow(ResourceType.TOPIC, config.eventsTopic(), PatternType.LITERAL, AclOperation.READ));
    acls.add(allow(ResourceType.TOPIC, config.eventsTopic(), PatternType.LITERAL, AclOperation.DESCRIBE));
    for (String out : List.of(config.violationsTopic(), config.dlqTopic())) {
      acls.add(allow(ResourceType.TOPIC, out, PatternType.LITERAL, AclOperation.WRITE));
      acls.add(allow(ResourceType.TOPIC, out, PatternType.LITERAL, AclOperation.DESCRIBE));
    }
    acls.add(allow(ResourceType.TOPIC, appId + "-", PatternType.PREFIXED, AclOperation.ALL));
    acls.add(allow(ResourceType.GROUP, appId, PatternType.LITERAL, AclOperation.READ));
    acls.add(allow(ResourceType.TRANSACTIONAL_ID, appId + "-", PatternType.PREFIXED, AclOperation.WRITE));
    acls.add(allow(ResourceType.TRANSACTIONAL_ID, appId + "-", PatternType.PREFIXED, AclOperation.DESCRIBE));
    return acls;
  }

  private static AclBinding allow(ResourceType type, String name, PatternType pattern, AclOperation op) {
    return new AclBinding(new ResourcePattern(type, name, pattern),
        new AccessControlEntry("User:monitor", "*", op, AclPermissionType.ALLOW));
  }

  private static String scram(String user, String password) {
    return SCRAM_LOGIN + " required username=\"" + user + "\" password=\"" + password + "\";";
  }

  /** @return SASL_SSL client settings trusting the broker's certificate */
  private static Properties tls(Path truststore) {
    Properties p = new Properties();
    p.setProperty(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "SASL_SSL");
    p.setProperty(SslConfigs.SSL_TRUSTSTORE_LOCATION_CONFIG, truststore.toString());
    p.setProperty(SslConfigs.SSL_TRUSTSTORE_PASSWORD_CONFIG, STORE_PASSWORD);
    p.setProperty(SslConfigs.SSL_TRUSTSTORE_TYPE_CONFIG, "PKCS12");
    return p;
  }

  private static void listTopics(Properties clients) throws Exception {
    Properties p = new Properties();
    p.putAll(clients);
    p.setProperty(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "8000");
    p.setProperty(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "4000");
    try (Admin admin = Admin.create(p)) {
      admin.listTopics().names().get(10, TimeUnit.SECONDS);
    }
  }

  /** A self-signed key pair for {@code localhost} in {@code keystore}, its certificate in {@code truststore}. */
  private void makeStores(Path keystore, Path truststore) throws IOException, InterruptedException {
    Path cert = tmp.resolve("broker.crt");
    keytool("-genkeypair", "-alias", "broker", "-keyalg", "RSA", "-keysize", "2048", "-validity", "2",
        "-dname", "CN=localhost", "-ext", "SAN=dns:localhost,ip:127.0.0.1", "-storetype", "PKCS12",
        "-keystore", keystore.toString(), "-storepass", STORE_PASSWORD, "-keypass", STORE_PASSWORD);
    keytool("-exportcert", "-rfc", "-alias", "broker", "-keystore", keystore.toString(), "-storepass", STORE_PASSWORD,
        "-file", cert.toString());
    keytool("-importcert", "-noprompt", "-alias", "broker", "-file", cert.toString(), "-storetype", "PKCS12",
        "-keystore", truststore.toString(), "-storepass", STORE_PASSWORD);
  }

  private void keytool(String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
    command.addAll(List.of(args));
    Path log = tmp.resolve("keytool.log");
    Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
      throw new IllegalStateException("keytool " + args[0] + " failed: " + Files.readString(log));
    }
  }
}
