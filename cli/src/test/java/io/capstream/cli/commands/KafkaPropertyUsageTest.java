package io.capstream.cli.commands;

import static io.capstream.cli.commands.CliRun.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.capstream.cli.CapstreamMain;
import io.capstream.cli.config.ConfigDefaultProvider;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * A Kafka client setting Kafka refuses is a usage error before any load is sent. A fresh user's {@code run
 * --kafka-property security.protocol=BOGUS} sent the whole load, then said that 7 of 7 events could not be delivered
 * (the embedded broker's clients, made after the last request, refused the setting).
 */
class KafkaPropertyUsageTest {
    /** Kafka's own message (its ConfigException's). */
    private static final String BOGUS = "Invalid value BOGUS for configuration security.protocol: String must be one"
            + " of (case insensitive): SASL_SSL, PLAINTEXT, SSL, SASL_PLAINTEXT";

    @TempDir
    Path tmp;

    private CountingTarget target;

    @BeforeEach
    void startTarget() throws Exception {
        target = new CountingTarget();
    }

    @AfterEach
    void stopTarget() {
        target.close();
    }

    @Test
    @Timeout(60)
    void aBadFlagValueIsRefusedBeforeTheRun() {
        CliRun r = run("run", "--base-url", target.baseUrl(), "--model", "m", "--requests", "2",
                "--kafka-property", "security.protocol=BOGUS");
        assertThat(r.code()).as("exit code; stderr %s", r.err()).isEqualTo(2);
        assertThat(r.lines()).as("stderr").first().isEqualTo("capstream run: Invalid value for option"
                + " '--kafka-property': security.protocol=BOGUS: " + BOGUS);
        assertThat(target.hits()).as("requests that reached the target").isZero();
        assertThat(r.err()).as("no broker was started").doesNotContain("embedded Kafka");
    }

    @Test
    @Timeout(60)
    void validSettingsPassSilently() {
        // the run's own usage error comes after the settings' check: it is the only line, no log line of Kafka's
        CliRun r = run("run", "--base-url", target.baseUrl(), "--model", "m", "--max-error-rate", "2",
                "--kafka-property", "security.protocol=SASL_SSL", "--kafka-property", "sasl.mechanism=PLAIN",
                "--kafka-property", "linger.ms=5", "--kafka-property", "no.such.setting=1");
        assertThat(r.code()).as("exit code; stderr %s", r.err()).isEqualTo(2);
        assertThat(r.lines()).as("stderr").containsExactly(
                "capstream run: --max-error-rate must be a share between 0 and 1 (exclusive), got 2.0");
        assertThat(target.hits()).as("requests that reached the target").isZero();
    }

    @Test
    @Timeout(60)
    void aBadValueFromTheConfigFileIsRefusedNamingTheFile() throws Exception {
        Path config = Files.writeString(tmp.resolve("c.properties"), "kafka.security.protocol=BOGUS\n");
        CliRun r = run("run", "--config", config.toString(), "--base-url", target.baseUrl(), "--model", "m",
                "--requests", "2");
        assertThat(r.code()).as("exit code; stderr %s", r.err()).isEqualTo(2);
        assertThat(r.lines()).as("stderr").first().isEqualTo("capstream run: Invalid value for option"
                + " '--kafka-property' (from config file " + config + " (key kafka.security.protocol)):"
                + " security.protocol=BOGUS: " + BOGUS);
        assertThat(target.hits()).as("requests that reached the target").isZero();
    }

    @Test
    @Timeout(60)
    void aBadValueFromTheEnvironmentIsRefusedNamingTheVariable() {
        CommandLine root = CapstreamMain.newCommandLine(new ConfigDefaultProvider(
                Map.of("CAPSTREAM_KAFKA_PROPERTY", "linger.ms=5\nsecurity.protocol=BOGUS"), new Properties()));
        StringWriter err = new StringWriter();
        root.setErr(new PrintWriter(err, true));
        int code = root.execute("generate", "--bootstrap-servers", "127.0.0.1:1", "--base-url", target.baseUrl(),
                "--model", "m", "--requests", "2");
        assertThat(code).as("exit code; stderr %s", err).isEqualTo(2);
        assertThat(err.toString().lines().findFirst()).as("stderr").hasValue("capstream generate: Invalid value for"
                + " option '--kafka-property' (from environment variable CAPSTREAM_KAFKA_PROPERTY):"
                + " security.protocol=BOGUS: " + BOGUS);
        assertThat(target.hits()).as("requests that reached the target").isZero();
    }
}
