package io.capstream.aggregator.runtime;

import io.capstream.aggregator.events.RegistryAwareDeserializationExceptionHandler;
import io.capstream.aggregator.events.RegistryAwareProcessingExceptionHandler;
import io.capstream.schemas.Topics;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.streams.StreamsConfig;

/**
 * Typed settings of a capstream Kafka Streams application, turned into {@link Properties} by
 * {@link #toProperties()}. Processing guarantee is always {@code exactly_once_v2}
 * (ARCHITECTURE.md, "Data flow"); the commit interval bounds how long a finished run's report
 * waits before read_committed consumers see it.
 *
 * @param applicationId     Streams {@code application.id} (consumer group and changelog prefix); not null
 * @param bootstrapServers  Kafka bootstrap servers; not null
 * @param stateDir          local state directory; null = Streams' default (java.io.tmpdir/kafka-streams)
 * @param commitIntervalMs  commit interval, ms (&gt; 0); 100 keeps the report latency low
 * @param streamThreads     number of stream threads (&gt;= 1)
 * @param replicationFactor replication factor of internal topics (changelogs); -1 = broker default
 * @param cacheMaxBytes     record cache size in bytes, shared by all threads (&gt;= 0)
 * @param extra             extra client/Streams properties applied last (e.g. security settings); never null
 */
public record StreamsSettings(String applicationId, String bootstrapServers, Path stateDir, long commitIntervalMs,
                              int streamThreads, int replicationFactor, long cacheMaxBytes, Map<String, String> extra) {
    /** Default commit interval, ms: reports become visible at most this long after the run completes. */
    public static final long DEFAULT_COMMIT_INTERVAL_MS = 100;
    /** Most stream threads {@link #defaultStreamThreads()} picks. */
    public static final int MAX_DEFAULT_STREAM_THREADS = 4;
    /**
     * Largest record the application's producer sends (uncompressed), bytes: 1 MiB, the producer's
     * default and about the broker's default {@code message.max.bytes}. Reports are split so that
     * every record stays below it ({@code io.capstream.aggregator.report.ReportChunks}); under
     * exactly-once a record the broker refuses would abort the transaction and stop the stream thread.
     */
    public static final int MAX_RECORD_BYTES = 1024 * 1024;
    /**
     * The producer's {@code transaction.timeout.ms}, ms: 120 s instead of Kafka Streams' 10 s, so
     * that the events decoder may hold a record through a schema registry outage for its whole
     * 60 s bound ({@code RegistryRetry}, which holds at most half of this) without the broker
     * aborting the open transaction. The cost: a transaction left open by a crashed instance blocks
     * read_committed consumers of its partitions for up to this long, unless the instance comes back.
     */
    public static final int TRANSACTION_TIMEOUT_MS = 120_000;
    /**
     * The producer's {@code batch.size}, bytes: 64 KiB instead of 16 KiB, so that a commit interval's changelog and
     * repartition records of one partition travel in a few compressed batches ({@link #toProperties()}).
     */
    public static final int BATCH_BYTES = 64 * 1024;
    /**
     * The stream threads' producers' {@code compression.gzip.level}: 1, the fastest deflate level (the codec's
     * default is 6). Level 1 deflates report JSON 3.7x faster for about 17% more bytes ({@link #toProperties()}).
     */
    public static final int GZIP_LEVEL = 1;

    /** Validates and copies. */
    public StreamsSettings {
        Objects.requireNonNull(applicationId, "applicationId");
        Objects.requireNonNull(bootstrapServers, "bootstrapServers");
        if (commitIntervalMs <= 0) {
            throw new IllegalArgumentException("commitIntervalMs must be > 0: " + commitIntervalMs);
        }
        if (streamThreads < 1) {
            throw new IllegalArgumentException("streamThreads must be >= 1: " + streamThreads);
        }
        if (cacheMaxBytes < 0) {
            throw new IllegalArgumentException("cacheMaxBytes must be >= 0: " + cacheMaxBytes);
        }
        extra = extra == null ? Map.of() : Map.copyOf(extra);
    }

    /**
     * One stream thread per core, at most {@value #MAX_DEFAULT_STREAM_THREADS}: the report
     * processor is CPU-bound, and on 2 cores with 4 event partitions two threads carried about 40%
     * more request events per second than one (bench/aggregation/README.md).
     *
     * @return the default number of stream threads, 1..{@value #MAX_DEFAULT_STREAM_THREADS}
     */
    public static int defaultStreamThreads() {
        return Math.max(1, Math.min(MAX_DEFAULT_STREAM_THREADS, Runtime.getRuntime().availableProcessors()));
    }

    /**
     * Settings with the defaults: 100 ms commit interval, {@link #defaultStreamThreads()} threads,
     * broker-default replication, 10 MiB cache, no extra properties.
     *
     * @param applicationId    application id
     * @param bootstrapServers bootstrap servers
     * @param stateDir         state directory, or null for the default
     * @return the settings
     */
    public static StreamsSettings defaults(String applicationId, String bootstrapServers, Path stateDir) {
        return new StreamsSettings(applicationId, bootstrapServers, stateDir, DEFAULT_COMMIT_INTERVAL_MS,
                defaultStreamThreads(), -1,
                10L * 1024 * 1024, Map.of());
    }

    /**
     * @param props extra properties applied last
     * @return a copy with these extra properties
     */
    public StreamsSettings withExtra(Map<String, String> props) {
        return new StreamsSettings(applicationId, bootstrapServers, stateDir, commitIntervalMs, streamThreads,
                replicationFactor, cacheMaxBytes, props);
    }

    /**
     * @param threads number of stream threads (&gt;= 1)
     * @return a copy with this many stream threads
     * @throws IllegalArgumentException when {@code threads} &lt; 1
     */
    public StreamsSettings withStreamThreads(int threads) {
        return new StreamsSettings(applicationId, bootstrapServers, stateDir, commitIntervalMs, threads,
                replicationFactor, cacheMaxBytes, extra);
    }

    /**
     * @param ms commit interval, ms
     * @return a copy with this commit interval
     */
    public StreamsSettings withCommitIntervalMs(long ms) {
        return new StreamsSettings(applicationId, bootstrapServers, stateDir, ms, streamThreads, replicationFactor,
                cacheMaxBytes, extra);
    }

    /** @return the Streams properties (exactly_once_v2, serdes are set per topic, not by default) */
    public Properties toProperties() {
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        p.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, Long.toString(commitIntervalMs));
        p.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, Integer.toString(streamThreads));
        p.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, Integer.toString(replicationFactor));
        p.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, Long.toString(cacheMaxBytes));
        if (stateDir != null) {
            p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        }
        p.put(StreamsConfig.consumerPrefix(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG), "earliest");
        // Under exactly-once nothing the producer sends is visible before the transaction commits, and the commit
        // (every commitIntervalMs) flushes the producer: lingering up to the commit interval delays no report, and
        // fills larger batches (changelogs, repartition) than 5 ms did, so each is compressed and sent once instead
        // of many small ones (a new gzip stream per batch; bench/windows/README.md, "the whole aggregate").
        p.put(StreamsConfig.producerPrefix(ProducerConfig.LINGER_MS_CONFIG), Long.toString(commitIntervalMs));
        p.put(StreamsConfig.producerPrefix(ProducerConfig.BATCH_SIZE_CONFIG), Integer.toString(BATCH_BYTES));
        // Report records are bounded (large artifacts travel in 256 KiB chunks, ReportChunks): no record
        // above the producer's default 1 MiB. The chunks are JSON and shrink several-fold with gzip, the one
        // codec kafkajs decodes without an extra package (lz4/snappy/zstd need one): see Topics.COMPRESSION_TYPE.
        p.put(StreamsConfig.producerPrefix(ProducerConfig.MAX_REQUEST_SIZE_CONFIG), Integer.toString(MAX_RECORD_BYTES));
        p.put(StreamsConfig.producerPrefix(ProducerConfig.COMPRESSION_TYPE_CONFIG), Topics.COMPRESSION_TYPE);
        // gzip at level 1, not the codec's default 6: deflating was 13% of the stream threads' CPU on a 500,000-event
        // backlog (async-profiler; report chunks and changelogs), and level 1 deflates report JSON 3.7x faster for
        // 17% more bytes (ratio 4.8 against 5.8; bench/windows/README.md, 2026-12-06). Readers see plain gzip, and
        // the broker keeps the batches as they are (same codec as the topics', no recompression).
        p.put(StreamsConfig.producerPrefix(ProducerConfig.COMPRESSION_GZIP_LEVEL_CONFIG), Integer.toString(GZIP_LEVEL));
        p.put(StreamsConfig.producerPrefix(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG), Integer.toString(TRANSACTION_TIMEOUT_MS));
        // No single record may stop the application (issue 11): an exception while processing one record
        // or in a punctuation is logged and the record is dead-lettered (its original key and bytes, with
        // Kafka Streams' __streams.errors.* headers) to capstream.events.dlq; so is a record on
        // capstream.reports(.chunks) that the reports tables cannot decode, and it is skipped. Send errors stay fatal: under exactly_once_v2 a failed send aborts the transaction, so no
        // ProductionExceptionHandler answer could keep it; records are kept below the limits instead.
        // Exception: a registry outage the events decoder could not wait out fails the thread instead, so that the
        // (valid) record is read again rather than dead-lettered (RegistryAwareProcessingExceptionHandler).
        p.put(StreamsConfig.PROCESSING_EXCEPTION_HANDLER_CLASS_CONFIG,
                RegistryAwareProcessingExceptionHandler.class.getName());
        p.put(StreamsConfig.PROCESSING_EXCEPTION_HANDLER_GLOBAL_ENABLED_CONFIG, "true");
        // Same for a record read back (capstream.reports, its chunks) whose writer schema the registry gave no answer
        // for: RegistryWaitingDeserializer holds it, then this handler fails the thread instead of dead-lettering it.
        p.put(StreamsConfig.DESERIALIZATION_EXCEPTION_HANDLER_CLASS_CONFIG,
                RegistryAwareDeserializationExceptionHandler.class.getName());
        p.put(StreamsConfig.ERRORS_DEAD_LETTER_QUEUE_TOPIC_NAME_CONFIG, Topics.EVENTS_DLQ);
        p.putAll(extra);
        return p;
    }
}
