package io.capstream.aggregator.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.capstream.schemas.Topics;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;

class StreamsSettingsTest {
    @Test
    void defaultsAreExactlyOnceV2WithAShortCommitInterval() {
        Properties p = StreamsSettings.defaults("app", "127.0.0.1:9092", Path.of("/tmp/state")).toProperties();
        assertEquals("exactly_once_v2", p.get(StreamsConfig.PROCESSING_GUARANTEE_CONFIG));
        assertEquals("100", p.get(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG));
        assertEquals("app", p.get(StreamsConfig.APPLICATION_ID_CONFIG));
        assertEquals("127.0.0.1:9092", p.get(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG));
        assertEquals("/tmp/state", p.get(StreamsConfig.STATE_DIR_CONFIG));
        int cores = Runtime.getRuntime().availableProcessors();
        assertEquals(Integer.toString(Math.min(4, cores)), p.get(StreamsConfig.NUM_STREAM_THREADS_CONFIG),
                "one stream thread per core, at most 4");
        assertEquals(Integer.toString(StreamsSettings.MAX_RECORD_BYTES), p.get("producer.max.request.size"));
        assertEquals("1048576", p.get("producer.max.request.size"), "the producer's default: no record above 1 MiB");
    }

    @Test
    void outputRecordsAreGzipSoEveryClientReadsThemWithoutAnExtraCodec() {
        Properties p = StreamsSettings.defaults("app", "b:1", null).toProperties();
        // kafkajs decodes only gzip (and none) without a codec package; lz4/snappy/zstd would break it.
        assertEquals("gzip", Topics.COMPRESSION_TYPE);
        assertEquals("gzip", p.get(StreamsConfig.producerPrefix(ProducerConfig.COMPRESSION_TYPE_CONFIG)));
        assertEquals("gzip", new StreamsConfig(p).getProducerConfigs("c").get(ProducerConfig.COMPRESSION_TYPE_CONFIG));
    }

    @Test
    void outputRecordsAreDeflatedAtTheFastestGzipLevel() {
        Properties p = StreamsSettings.defaults("app", "b:1", null).toProperties();
        Map<String, Object> producer = new StreamsConfig(p).getProducerConfigs("c");
        assertThat(String.valueOf(producer.get(ProducerConfig.COMPRESSION_GZIP_LEVEL_CONFIG)))
                .as("compression.gzip.level of a stream thread's producer (deflating at the default 6 was 13%% of the"
                        + " stream threads' CPU)").isEqualTo("1");
    }

    @Test
    void theProducerLingersForTheCommitIntervalSinceNothingIsVisibleBeforeTheCommit() {
        Properties p = StreamsSettings.defaults("app", "b:1", null).toProperties();
        Map<String, Object> producer = new StreamsConfig(p).getProducerConfigs("c");
        assertThat(String.valueOf(producer.get(ProducerConfig.LINGER_MS_CONFIG)))
                .as("linger.ms of a stream thread's producer: the commit interval (was 5 ms)").isEqualTo("100");
        assertThat(String.valueOf(producer.get(ProducerConfig.BATCH_SIZE_CONFIG)))
                .as("batch.size of a stream thread's producer").isEqualTo("65536");
        Properties slower = StreamsSettings.defaults("app", "b:1", null).withCommitIntervalMs(1000).toProperties();
        assertThat(slower.get(StreamsConfig.producerPrefix(ProducerConfig.LINGER_MS_CONFIG)))
                .as("linger.ms follows the commit interval").isEqualTo("1000");
        Properties own = StreamsSettings.defaults("app", "b:1", null)
                .withExtra(Map.of("producer.linger.ms", "7")).toProperties();
        assertThat(own.get("producer.linger.ms")).as("an explicit producer.linger.ms wins").isEqualTo("7");
    }

    @Test
    void oneRecordCannotStopTheApplication() {
        Properties p = StreamsSettings.defaults("app", "b:1", null).toProperties();
        // log, dead-letter and continue (LogAndContinueProcessingExceptionHandler), except for a registry outage
        assertEquals("io.capstream.aggregator.events.RegistryAwareProcessingExceptionHandler",
                p.get(StreamsConfig.PROCESSING_EXCEPTION_HANDLER_CLASS_CONFIG));
        assertEquals("true", p.get(StreamsConfig.PROCESSING_EXCEPTION_HANDLER_GLOBAL_ENABLED_CONFIG));
        // log, dead-letter and skip an undecodable record (LogAndContinueExceptionHandler), except for a registry outage
        assertEquals("io.capstream.aggregator.events.RegistryAwareDeserializationExceptionHandler",
                p.get(StreamsConfig.DESERIALIZATION_EXCEPTION_HANDLER_CLASS_CONFIG));
        assertEquals("capstream.events.dlq", p.get(StreamsConfig.ERRORS_DEAD_LETTER_QUEUE_TOPIC_NAME_CONFIG));
        new StreamsConfig(p); // a valid configuration
    }

    @Test
    void transactionsMayStayOpenWhileARecordIsHeldThroughARegistryOutage() {
        Properties p = StreamsSettings.defaults("app", "b:1", null).toProperties();
        assertEquals("120000", p.get("producer.transaction.timeout.ms"));
        assertEquals("120000", String.valueOf(new StreamsConfig(p).getProducerConfigs("c").get(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG)),
                "the producer of a stream thread gets it (not Kafka Streams' 10 s default for exactly-once)");
    }

    @Test
    void extraPropertiesComeLastAndOptionsValidate() {
        Properties p = StreamsSettings.defaults("app", "b:1", null)
                .withExtra(Map.of("security.protocol", "SASL_SSL", "commit.interval.ms", "250")).toProperties();
        assertEquals("SASL_SSL", p.get("security.protocol"));
        assertEquals("250", p.get(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG));
        assertEquals(null, p.get(StreamsConfig.STATE_DIR_CONFIG));
        assertThrows(IllegalArgumentException.class,
                () -> StreamsSettings.defaults("app", "b:1", null).withCommitIntervalMs(0));
        assertEquals("3", StreamsSettings.defaults("app", "b:1", null).withStreamThreads(3).toProperties()
                .get(StreamsConfig.NUM_STREAM_THREADS_CONFIG));
        assertThrows(IllegalArgumentException.class,
                () -> StreamsSettings.defaults("app", "b:1", null).withStreamThreads(0));
    }
}
