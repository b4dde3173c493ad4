package io.capstream.cli.stack;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.capstream.aggregator.runtime.StreamsRuntime;
import io.capstream.aggregator.runtime.StreamsSettings;
import io.capstream.cli.embedded.EmbeddedKafka;
import io.capstream.cli.embedded.EmbeddedKafkaConfig;
import io.capstream.cli.report.TopicHistory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.errors.LogAndFailProcessingExceptionHandler;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Produced;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link StreamsRuntime} on the embedded broker: a topology that runs, processes a record and is
 * closed without leaving its temporary state directory; a topology whose processor fails stops the
 * application and the runtime says why.
 */
@Timeout(180)
class StreamsRuntimeIT {
    private static EmbeddedKafka kafka;

    @BeforeAll
    static void startKafka() throws Exception {
        kafka = EmbeddedKafka.start(EmbeddedKafkaConfig.defaults());
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", kafka.bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic("rt-ok-in", 1, (short) 1), new NewTopic("rt-ok-out", 1, (short) 1),
                    new NewTopic("rt-fail-in", 1, (short) 1), new NewTopic("rt-fail-out", 1, (short) 1)))
                    .all().get(30, TimeUnit.SECONDS);
        }
    }

    @AfterAll
    static void stopKafka() {
        if (kafka != null) {
            kafka.close();
        }
    }

    private static Topology upperCase(String in, String out) {
        StreamsBuilder b = new StreamsBuilder();
        b.stream(in, Consumed.with(Serdes.String(), Serdes.String()))
                .mapValues(v -> {
                    if (v.equals("boom")) {
                        throw new IllegalStateException("boom");
                    }
                    return v.toUpperCase(java.util.Locale.ROOT);
                })
                .to(out, Produced.with(Serdes.String(), Serdes.String()));
        return b.build();
    }

    private static void send(String topic, String value) throws Exception {
        try (KafkaProducer<String, String> p = new KafkaProducer<>(Map.of("bootstrap.servers", kafka.bootstrapServers()),
                new StringSerializer(), new StringSerializer())) {
            p.send(new ProducerRecord<>(topic, "k", value)).get(30, TimeUnit.SECONDS);
        }
    }

    private static List<String> values(String topic) {
        List<String> values = new ArrayList<>();
        TopicHistory.read(Map.of("bootstrap.servers", kafka.bootstrapServers()), topic,
                (k, v) -> values.add(new String(v, StandardCharsets.UTF_8)));
        return values;
    }

    @Test
    void aTopologyRunsAndClosesWithoutLeavingItsStateDirectory() throws Exception {
        StreamsSettings settings = StreamsSettings.defaults("rt-ok", kafka.bootstrapServers(), null).withStreamThreads(1);
        StreamsRuntime rt = StreamsRuntime.create(upperCase("rt-ok-in", "rt-ok-out"), settings,
                StreamsRuntime.Options.named("test topology").withTempStateDir().withCleanUpOnClose(true));
        Path dir = rt.tempStateDir();
        try {
            rt.start();
            rt.awaitRunning(Duration.ofSeconds(60));
            assertTrue(Files.isDirectory(dir), "the temporary state directory exists while it runs: " + dir);

            send("rt-ok-in", "hello");
            await().atMost(Duration.ofSeconds(60)).until(() -> values("rt-ok-out").equals(List.of("HELLO")));
            assertNull(rt.failure());
            assertFalse(rt.awaitStopped(Duration.ZERO));
        } finally {
            rt.close();
        }
        assertEquals(KafkaStreams.State.NOT_RUNNING, rt.state());
        assertTrue(rt.awaitStopped(Duration.ZERO));
        assertFalse(Files.exists(dir), "deleted on close: " + dir);
    }

    @Test
    void aFailingProcessorStopsTheApplicationAndTheRuntimeSaysWhy() throws Exception {
        StreamsSettings settings = StreamsSettings.defaults("rt-fail", kafka.bootstrapServers(), null).withStreamThreads(1)
                // let the processor's exception reach the uncaught-exception handler (capstream's own handler
                // dead-letters the record and goes on)
                .withExtra(Map.of(StreamsConfig.PROCESSING_EXCEPTION_HANDLER_CLASS_CONFIG,
                        LogAndFailProcessingExceptionHandler.class.getName()));
        try (StreamsRuntime rt = StreamsRuntime.create(upperCase("rt-fail-in", "rt-fail-out"), settings,
                StreamsRuntime.Options.named("test topology").withTempStateDir())) {
            rt.start();
            rt.awaitRunning(Duration.ofSeconds(60));
            assertNull(rt.failure());

            send("rt-fail-in", "boom");
            assertTrue(rt.awaitStopped(Duration.ofSeconds(60)), "stopped by the failure, state " + rt.state());
            assertEquals(KafkaStreams.State.ERROR, rt.state());
            assertEquals("the test topology stopped (Kafka Streams state ERROR, see the log above)", rt.failure());
        }
    }
}
