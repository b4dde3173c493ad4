package io.capstream.cli.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.capstream.cli.options.KafkaOptions;
import io.capstream.schemas.registry.RegistryClientConfig;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** Precedence flag > environment > config file > default, per source, through picocli itself. */
class ConfigPrecedenceTest {
    @TempDir
    Path dir;

    @Command(name = "root", subcommands = {Probe.class, Other.class})
    static final class Root implements Runnable {
        @Option(names = "--config", scope = CommandLine.ScopeType.INHERIT)
        String config;

        @Override
        public void run() {
        }
    }

    @Command(name = "probe", mixinStandardHelpOptions = true)
    static final class Probe implements Callable<Integer> {
        @Mixin
        KafkaOptions kafka;

        @Option(names = "--requests", defaultValue = "100", description = "Requests.")
        int requests;

        @Option(names = "--http-port", description = "Port.")
        int httpPort = 8080;

        @Option(names = "--continuous", description = "Flag.")
        boolean continuous;

        @Option(names = "--api-key", description = "Secret.")
        String apiKey;

        RegistryClientConfig registry;
        Map<String, String> kafkaProps;

        @Override
        public Integer call() {
            registry = kafka.registryClientConfig();
            kafkaProps = kafka.kafkaProperties();
            return 0;
        }
    }

    @Command(name = "other")
    static final class Other implements Callable<Integer> {
        @Option(names = "--only-here")
        String onlyHere;

        @Override
        public Integer call() {
            return 0;
        }
    }

    /** Result of one execution. */
    record Outcome(int exitCode, Probe probe, String err, String out) {
    }

    private Outcome run(Map<String, String> env, String... args) {
        CommandLine cmd = new CommandLine(new Root());
        cmd.setDefaultValueProvider(ConfigDefaultProvider.fromArgs(args, env));
        ConfigErrors.install(cmd);
        StringWriter err = new StringWriter();
        StringWriter out = new StringWriter();
        cmd.setErr(new PrintWriter(err, true));
        cmd.setOut(new PrintWriter(out, true));
        int code = cmd.execute(args);
        Probe probe = cmd.getSubcommands().get("probe").getCommand();
        return new Outcome(code, probe, err.toString(), out.toString());
    }

    private Path file(String text) throws IOException {
        Path f = dir.resolve("capstream.properties");
        Files.writeString(f, text);
        return f;
    }

    @Test
    void builtInDefaultsWhenNothingIsSet() {
        Outcome o = run(Map.of(), "probe");
        assertEquals(0, o.exitCode(), o.err());
        assertEquals(100, o.probe().requests);
        assertEquals(8080, o.probe().httpPort);
        assertFalse(o.probe().continuous);
        assertNull(o.probe().kafka.bootstrapServers());
        assertEquals("mock://capstream", o.probe().kafka.schemaRegistryUrlOr("mock://capstream"));
    }

    @Test
    void configFileOverridesDefaults() throws IOException {
        Path f = file("requests=7\nhttp-port=9000\ncontinuous=true\nbootstrap-servers=kafka:9092\n"
                + "schema-registry-url=http://schema-registry:8081\nonly-here=x\n");
        Outcome o = run(Map.of(), "probe", "--config", f.toString());
        assertEquals(0, o.exitCode(), o.err());
        assertEquals(7, o.probe().requests);
        assertEquals(9000, o.probe().httpPort);
        assertTrue(o.probe().continuous);
        assertEquals("kafka:9092", o.probe().kafka.bootstrapServers());
        assertEquals("http://schema-registry:8081", o.probe().kafka.schemaRegistryUrl());
    }

    @Test
    void configFileNamedByEnvironment() throws IOException {
        Path f = file("requests=8\n");
        Outcome o = run(Map.of("CAPSTREAM_CONFIG", f.toString()), "probe");
        assertEquals(0, o.exitCode(), o.err());
        assertEquals(8, o.probe().requests);
    }

    @Test
    void environmentOverridesConfigFile() throws IOException {
        Path f = file("requests=7\nhttp-port=9000\nbootstrap-servers=file:9092\n");
        Outcome o = run(Map.of("CAPSTREAM_REQUESTS", "11", "CAPSTREAM_BOOTSTRAP_SERVERS", "env:9092",
                "CAPSTREAM_HTTP_PORT", ""), "probe", "--config=" + f);
        assertEquals(0, o.exitCode(), o.err());
        assertEquals(11, o.probe().requests);
        assertEquals(9000, o.probe().httpPort, "an empty variable counts as unset");
        assertEquals("env:9092", o.probe().kafka.bootstrapServers());
    }

    @Test
    void flagOverridesEnvironmentAndFile() throws IOException {
        Path f = file("requests=7\n");
        Outcome o = run(Map.of("CAPSTREAM_REQUESTS", "11", "CAPSTREAM_BOOTSTRAP_SERVERS", "env:9092"),
                "probe", "--config", f.toString(), "--requests", "3", "--bootstrap-servers", "flag:9092");
        assertEquals(0, o.exitCode(), o.err());
        assertEquals(3, o.probe().requests);
        assertEquals("flag:9092", o.probe().kafka.bootstrapServers());
    }

    @Test
    void kafkaPropertiesMergePerKey() throws IOException {
        Path f = file("kafka.security.protocol=SASL_PLAINTEXT\nkafka.sasl.mechanism=PLAIN\nkafka.client.id=file\n");
        Map<String, String> env = Map.of("CAPSTREAM_KAFKA_PROPERTY", "sasl.mechanism=SCRAM-SHA-512\n# comment\n\nclient.id=env\n");
        Outcome o = run(env, "probe", "--config", f.toString(), "--kafka-property", "client.id=flag",
                "--kafka-property", "linger.ms=5");
        assertEquals(0, o.exitCode(), o.err());
        Map<String, String> expected = new LinkedHashMap<>();
        expected.put("client.id", "flag");
        expected.put("sasl.mechanism", "SCRAM-SHA-512");
        expected.put("security.protocol", "SASL_PLAINTEXT");
        expected.put("linger.ms", "5");
        assertEquals(new HashMap<>(expected), new HashMap<>(o.probe().kafkaProps));
        Map<String, Object> producer = o.probe().kafka.clientProperties()
                .withBootstrapServers("127.0.0.1:9092").producer(Map.of("acks", "all", "client.id", "own"));
        assertEquals("127.0.0.1:9092", producer.get("bootstrap.servers"));
        assertEquals("all", producer.get("acks"));
        assertEquals("flag", producer.get("client.id"), "user settings override capstream's own non-reserved ones");
        assertEquals("SASL_PLAINTEXT", o.probe().kafka.clientProperties().admin().get("security.protocol"));
        assertEquals("SCRAM-SHA-512", o.probe().kafka.clientProperties().streamsProperties(Map.of()).get("sasl.mechanism"));
    }

    @Test
    void kafkaPropertyMayNotSetBootstrapServers() {
        Outcome o = run(Map.of(), "probe", "--kafka-property", "bootstrap.servers=x:1");
        assertEquals(2, o.exitCode());
        assertThat(o.err()).contains("use --bootstrap-servers");
    }

    @Test
    void credentialsInBootstrapServersAreAUsageErrorThatHidesThem() {
        Outcome o = run(Map.of(), "probe", "--bootstrap-servers", "127.0.0.1:9092,alice:pw-hunter2@127.0.0.1:9");
        assertThat(o.exitCode()).as("exit code; err: %s", o.err()).isEqualTo(2);
        assertThat(o.err()).as("the message, which went on to Kafka's 'Invalid url in bootstrap.servers' with the"
                        + " password in it (exit 1) before")
                .contains("--bootstrap-servers", "without credentials", "127.0.0.1:9092,***@127.0.0.1:9")
                .doesNotContain("pw-hunter2", "alice");
    }

    @Test
    void registryCredentialsFromEachSource() throws IOException {
        Outcome env = run(Map.of("CAPSTREAM_SCHEMA_REGISTRY_BASIC_AUTH", "u:p"), "probe");
        assertEquals(0, env.exitCode(), env.err());
        assertEquals("u:p", env.probe().registry.basicAuthUserInfo());
        assertNull(env.probe().registry.bearerToken());

        Path f = file("schema-registry-bearer-token=tok-file\n");
        Map<String, String> serde = env.probe().kafka.serdeProperties("http://r:8081");
        assertEquals("u:p", serde.get("basic.auth.user.info"));
        assertEquals("[hidden]", Secrets.redact(serde).get("basic.auth.user.info"));
        assertEquals("http://r:8081", serde.get("schema.registry.url"));

        Outcome file = run(Map.of(), "probe", "--config", f.toString());
        assertEquals("tok-file", file.probe().registry.bearerToken());

        Outcome flag = run(Map.of("CAPSTREAM_SCHEMA_REGISTRY_BEARER_TOKEN", "tok-env"), "probe",
                "--config", f.toString(), "--schema-registry-bearer-token", "tok-flag");
        assertEquals("tok-flag", flag.probe().registry.bearerToken());
    }

    @Test
    void bothRegistryCredentialsIsAUsageError() {
        Outcome o = run(Map.of("CAPSTREAM_SCHEMA_REGISTRY_BASIC_AUTH", "user:hunter2"), "probe",
                "--schema-registry-bearer-token", "t0ken-value");
        assertEquals(2, o.exitCode());
        assertThat(o.err()).contains("not both");
        assertThat(o.err()).doesNotContain("hunter2", "t0ken-value");
    }

    @Test
    void unreadableConfigFileIsAUsageError() {
        Outcome o = run(Map.of(), "probe", "--config", dir.resolve("missing.properties").toString());
        assertEquals(2, o.exitCode());
        assertThat(o.err()).contains("cannot read config file", "missing.properties");
        assertThat(o.err()).as("the message comes first, without picocli's wrapper text: " + o.err())
                .startsWith("cannot read config file ");
        assertThat(o.err()).doesNotContain("while processing argument");
    }

    @Test
    void aBinaryConfigFileIsNamedAsSuch() throws IOException {
        // fresh-user finding: "(MalformedInputException: Input length = 1)"
        java.nio.file.Path bin = dir.resolve("bin.properties");
        java.nio.file.Files.write(bin, new byte[] {(byte) 0xFF, (byte) 0xD8, (byte) 0xFF, 0x00});
        Outcome o = run(Map.of(), "probe", "--config", bin.toString());
        assertEquals(2, o.exitCode());
        assertThat(o.err()).startsWith("cannot read config file " + bin + " (not UTF-8 text (a binary file?))");
    }

    @Test
    void unknownConfigKeyIsAUsageError() throws IOException {
        Path f = file("bootstrap-server=typo:9092\n");
        Outcome o = run(Map.of(), "probe", "--config", f.toString());
        assertEquals(2, o.exitCode());
        assertThat(o.err()).contains("unknown key bootstrap-server");
        assertThat(o.err()).startsWith("config file ");
    }

    @Test
    void badEnvironmentValueNamesTheVariable() {
        Outcome o = run(Map.of("CAPSTREAM_REQUESTS", "abc"), "probe");
        assertEquals(2, o.exitCode());
        assertThat(o.err()).contains("--requests", "CAPSTREAM_REQUESTS");
    }

    @Test
    void badFileValueNamesTheFileKey() throws IOException {
        Path f = file("http-port=eighty\n");
        Outcome o = run(Map.of(), "probe", "--config", f.toString());
        assertEquals(2, o.exitCode());
        assertThat(o.err()).contains("key http-port");
    }

    @Test
    void badBootstrapServersIsAUsageErrorNamingTheSource() {
        Outcome o = run(Map.of("CAPSTREAM_BOOTSTRAP_SERVERS", "no-port-here"), "probe");
        assertEquals(2, o.exitCode());
        assertThat(o.err()).contains("CAPSTREAM_BOOTSTRAP_SERVERS", "HOST:PORT");

        Outcome flag = run(Map.of(), "probe", "--schema-registry-url", "ftp://x");
        assertEquals(2, flag.exitCode());
        assertThat(flag.err()).contains("--schema-registry-url");
        assertThat(flag.err()).doesNotContain("(from ");
    }

    @Test
    void malformedKafkaPropertyLineIsAUsageError() {
        Outcome o = run(Map.of("CAPSTREAM_KAFKA_PROPERTY", "sasl.jaas.config"), "probe");
        assertEquals(2, o.exitCode());
        assertThat(o.err()).contains("CAPSTREAM_KAFKA_PROPERTY", "key=value");
    }

    @Test
    void helpNeverShowsSecretsFromTheEnvironment() {
        Outcome o = run(Map.of("CAPSTREAM_SCHEMA_REGISTRY_BEARER_TOKEN", "s3cr3t-token",
                "CAPSTREAM_SCHEMA_REGISTRY_BASIC_AUTH", "me:s3cr3t-pass",
                "CAPSTREAM_KAFKA_PROPERTY", "sasl.jaas.config=s3cr3t-jaas"), "probe", "--help");
        assertEquals(0, o.exitCode());
        assertThat(o.out()).contains("--schema-registry-bearer-token");
        assertThat(o.out()).doesNotContain("s3cr3t");
    }

    @Test
    void describeMasksSecrets() {
        Outcome o = run(Map.of("CAPSTREAM_SCHEMA_REGISTRY_BASIC_AUTH", "me:s3cr3t-pass"), "probe",
                "--schema-registry-url", "https://me:urlpass@registry.example:8081",
                "--kafka-property", "sasl.jaas.config=org.Foo required password=\"s3cr3t\";",
                "--kafka-property", "security.protocol=SASL_SSL");
        assertEquals(0, o.exitCode(), o.err());
        String text = o.probe().kafka.describe();
        assertThat(text).doesNotContain("s3cr3t", "urlpass");
        assertThat(text).contains("security.protocol=SASL_SSL", "sasl.jaas.config=[hidden]");
        assertThat(o.probe().kafka.clientProperties().toString()).doesNotContain("s3cr3t");
    }
}
