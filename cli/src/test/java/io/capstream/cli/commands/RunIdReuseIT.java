package io.capstream.cli.commands;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.capstream.cli.CapstreamMain;
import io.capstream.cli.embedded.EmbeddedKafka;
import io.capstream.cli.embedded.EmbeddedKafkaConfig;
import io.capstream.cli.embedded.TopicSetup;
import io.capstream.schemas.Topics;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A --run-id that already has a report on capstream.reports gets a warning on stderr. */
class RunIdReuseIT {
    @Test
    @Timeout(120)
    void reusedRunIdIsWarnedAbout() throws Exception {
        try (EmbeddedKafka kafka = EmbeddedKafka.start(EmbeddedKafkaConfig.defaults())) {
            String bs = kafka.bootstrapServers();
            TopicSetup.ensureTopics(bs, Map.of(), TopicSetup.DEFAULT_EVENT_PARTITIONS);
            try (KafkaProducer<String, byte[]> p = new KafkaProducer<>(Map.of("bootstrap.servers", bs),
                    new StringSerializer(), new ByteArraySerializer())) {
                p.send(new ProducerRecord<>(Topics.REPORTS, "taken-id", new byte[] {0})).get();
            }
            String reused = generate(bs, "taken-id");
            assertThat(reused).contains("warning: capstream.reports already has a report for run id taken-id");
            String fresh = generate(bs, "fresh-id");
            assertThat(fresh).doesNotContain("warning");
        }
    }

    private static synchronized String generate(String bs, String runId) {
        PrintStream oldErr = System.err;
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code;
        try {
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            code = CapstreamMain.execute("generate", "--bootstrap-servers", bs, "--schema-registry-url",
                    "mock://run-id-reuse-it", "--requests", "1", "--ctx-tokens", "256", "--max-tokens", "4",
                    "--run-id", runId);
        } finally {
            System.setErr(oldErr);
        }
        String text = err.toString(StandardCharsets.UTF_8);
        oldErr.println(text);
        assertEquals(0, code, text);
        return text;
    }
}
