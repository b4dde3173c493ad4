package io.capstream.aggregator.events;

import io.capstream.schemas.time.CapClock;
import io.capstream.schemas.avro.RunEvent;
import io.capstream.schemas.registry.RegistryClientConfig;
import io.capstream.schemas.registry.SchemaRegistryClient;
import io.capstream.schemas.registry.SchemaRegistryClients;
import io.capstream.schemas.registry.SchemaRegistryException;
import io.capstream.schemas.registry.SchemaRegistryUnavailableException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The shared source of every aggregator topology: reads {@code capstream.events} as raw bytes,
 * decodes each value as a {@link RunEvent} (Confluent wire format, schema from the registry), and
 * sends records that cannot be decoded, events outside {@link EventBounds} (e.g. a RunStarted
 * claiming more than 100,000 requests, error class {@link EventOutOfBoundsException}), and events
 * whose record key is not their run id ({@link EventKeyException}: a keyless producer), to the
 * dead-letter topic with their original key and bytes; processing continues with the next record.
 *
 * <p>Headers added to a dead-letter record (UTF-8 strings): {@value #H_ERROR_CLASS},
 * {@value #H_ERROR_MESSAGE}, {@value #H_SOURCE_TOPIC}, {@value #H_SOURCE_PARTITION},
 * {@value #H_SOURCE_OFFSET}. The original headers are kept. A null value (tombstone) is also
 * dead-lettered. Decoding is the Confluent wire format of {@code SpecificAvroSerde<RunEvent>}, with a
 * cached reader per writer schema ({@link RunEventDecoder}).
 *
 * <p>Only records that cannot be decoded are dead-lettered. When the registry gives no answer to
 * the lookup of a record's writer schema (connection refused, timeout, HTTP 5xx or 429: a
 * {@link SchemaRegistryUnavailableException}; an answer such as 404 "schema not found" does
 * dead-letter the record), the record is held: the lookup is retried with back-off
 * ({@link RegistryRetry}), the outage is reported to {@link RegistryHealth} (readiness is false
 * meanwhile), and once the registry answers the record is processed normally. A record held longer
 * than {@link RegistryRetry#holdBound} throws {@link RegistryOutageException}, which fails the
 * stream thread ({@link RegistryAwareProcessingExceptionHandler}) so that Kafka Streams replaces it
 * ({@link RegistryOutageThreadHandler}) and reads the record again from the last commit.
 */
public final class EventsSource {
    /** Header: class name of the decoding error. */
    public static final String H_ERROR_CLASS = "capstream.error.class";
    /** Header: message of the decoding error (at most 2048 characters). */
    public static final String H_ERROR_MESSAGE = "capstream.error.message";
    /** Header: topic the record was read from. */
    public static final String H_SOURCE_TOPIC = "capstream.source.topic";
    /** Header: partition the record was read from (decimal). */
    public static final String H_SOURCE_PARTITION = "capstream.source.partition";
    /** Header: offset of the record (decimal). */
    public static final String H_SOURCE_OFFSET = "capstream.source.offset";

    /** The decoder's child that gets the decoded events (the stream {@link #stream} returns). */
    static final String OK_NODE = "capstream-events-decoded";
    /** The decoder's child that gets the raw bytes of the records that go to the dead-letter topic. */
    static final String DLQ_NODE = "capstream-events-dlq-bytes";
    private static final String DLQ_SINK = "capstream-events-dlq-sink";
    private static final int MAX_MESSAGE = 2048;
    private static final Logger LOG = LoggerFactory.getLogger(EventsSource.class);

    private EventsSource() {
    }

    /**
     * Adds the source, the decoder and the dead-letter sink to {@code builder}.
     *
     * @param builder the builder; not null
     * @param config  topics, registry, and how records are held during a registry outage; not null
     * @return the decoded events, keyed by run id (never null values)
     */
    public static KStream<String, RunEvent> stream(StreamsBuilder builder, EventsSourceConfig config) {
        KStream<String, byte[]> raw = builder.stream(config.eventsTopic(),
                Consumed.with(Serdes.String(), Serdes.ByteArray()).withName("capstream-events-source"));
        // the decoder forwards each record to one of its two children by name (issue 31: no split, branch and
        // mapValues nodes for every event): the dead-letter sink gets the raw bytes, OK_NODE the decoded event
        // one registry client (and its cache of writer schemas) for every task's decoder: one lookup per schema id in
        // the process instead of one per task (each an HTTP round trip while the stream threads wait)
        SharedClient registry = new SharedClient(config);
        KStream<String, Object> decoded = raw.process(() -> new DecodeProcessor(config, CapClock.system(), registry),
                Named.as("capstream-events-decode"));
        decoded.mapValues(v -> (byte[]) v, Named.as(DLQ_NODE))
                .to(config.dlqTopic(), Produced.with(Serdes.String(), Serdes.ByteArray()).withName(DLQ_SINK));
        return decoded.mapValues(v -> (RunEvent) v, Named.as(OK_NODE));
    }

    /**
     * Decodes one record; on failure forwards the raw bytes with error headers; holds the record
     * while the registry gives no answer (see the class comment). One instance per stream task.
     */
    static final class DecodeProcessor implements Processor<String, byte[], String, Object> {
        private final long requestTimeoutNs;
        private final SharedClient registry;
        private final RegistryRetry retry;
        private final RegistryHealth health;
        private final CapClock clock;
        private ProcessorContext<String, Object> context;
        private RunEventDecoder decoder;
        private String reporter;
        private long holdBoundNs;
        /** Whether {@link #health} may hold an outage of this task (a previous owner may have left one). */
        private boolean outageReported = true;

        DecodeProcessor(EventsSourceConfig config) {
            this(config, CapClock.system());
        }

        /**
         * @param config the source's settings; not null
         * @param clock  the clock of the registry hold bound and the back-off's waits; not null
         */
        DecodeProcessor(EventsSourceConfig config, CapClock clock) {
            this(config, clock, new SharedClient(config));
        }

        /**
         * @param config   the source's settings; not null
         * @param clock    the clock of the registry hold bound and the back-off's waits; not null
         * @param registry the registry client, created on first use and shared by the tasks given the same; not null
         */
        DecodeProcessor(EventsSourceConfig config, CapClock clock, SharedClient registry) {
            this.clock = clock;
            this.registry = registry;
            // one HTTP request per attempt (SharedClient): this processor retries with its own back-off and hold bound
            this.requestTimeoutNs = config.registryClient().requestTimeout().toNanos();
            this.retry = config.registryRetry();
            this.health = config.registryHealth();
        }

        @Override
        public void init(ProcessorContext<String, Object> context) {
            this.context = context;
            this.reporter = "task " + context.taskId();
            this.holdBoundNs = retry.holdBound(context.appConfigs()).toNanos();
            this.decoder = new RunEventDecoder(registry.get());
        }

        @Override
        public void process(Record<String, byte[]> record) {
            String topic = context.recordMetadata().map(RecordMetadata::topic).orElse("");
            Throwable error;
            try {
                String tooLarge = record.value() == null ? null : EventBounds.sizeViolation(record.value().length);
                if (record.value() == null) {
                    error = new NullValueException("null value (tombstone) on an events topic");
                } else if (tooLarge != null) {
                    error = new EventOutOfBoundsException(tooLarge);
                } else {
                    RunEvent event = decodeWaitingForRegistry(topic, record.value());
                    String outOfBounds = event == null || event.getPayload() == null ? null : EventBounds.violation(event);
                    if (outOfBounds != null) {
                        error = new EventOutOfBoundsException("event " + event.getEventId() + " of run "
                                + event.getRunId() + ": " + outOfBounds);
                    } else if (event != null && event.getPayload() != null
                            && !String.valueOf(event.getRunId()).equals(record.key())) {
                        error = new EventKeyException(record.key(), String.valueOf(event.getRunId()));
                    } else if (event != null && event.getPayload() != null) {
                        context.forward(record.withValue(event), OK_NODE);
                        return;
                    } else {
                        error = new NullValueException("decoded to null");
                    }
                }
            } catch (RegistryOutageException e) {
                throw e; // not the record's fault: never dead-lettered
            } catch (RuntimeException e) {
                error = e;
            }
            context.forward(record.<Object>withValue(record.value()).withHeaders(errorHeaders(record, error)), DLQ_NODE);
        }

        /**
         * @return the decoded event
         * @throws RegistryOutageException when the registry gave no answer for longer than the hold bound
         * @throws RuntimeException        (SerializationException) when the record cannot be decoded
         */
        private RunEvent decodeWaitingForRegistry(String topic, byte[] value) {
            long start = clock.nanoTime();
            Duration backoff = retry.initialBackoff();
            for (int attempt = 1; ; attempt++) {
                try {
                    RunEvent event = decoder.decode(topic, value);
                    if (attempt > 1) {
                        LOG.info("schema registry answers again after {} ms ({} attempts): {} decoded", millisSince(start),
                                attempt, where());
                    }
                    answered();
                    return event;
                } catch (SchemaRegistryUnavailableException e) {
                    health.unreachable(reporter, e.getMessage());
                    outageReported = true;
                    long nextAttemptEndNs = clock.nanoTime() - start + backoff.toNanos() + requestTimeoutNs;
                    if (nextAttemptEndNs > holdBoundNs || Thread.currentThread().isInterrupted()) {
                        throw outage(start, attempt, e);
                    }
                    if (attempt == 1) {
                        LOG.warn("schema registry gives no answer; holding {} and retrying for up to {} ms: {}", where(),
                                holdBoundNs / 1_000_000, e.getMessage());
                    }
                    try {
                        clock.sleep(backoff);
                    } catch (InterruptedException ie) {
                        Thread.currentThread().interrupt();
                        throw outage(start, attempt, e);
                    }
                    backoff = retry.next(backoff);
                } catch (RuntimeException e) {
                    if (e.getCause() instanceof SchemaRegistryException) {
                        answered(); // the registry answered (e.g. 404): the record is what is wrong
                    }
                    throw e;
                }
            }
        }

        private void answered() {
            if (outageReported) {
                health.answered(reporter);
                outageReported = false;
            }
        }

        private RegistryOutageException outage(long startNs, int attempts, SchemaRegistryUnavailableException last) {
            return new RegistryOutageException("schema registry gave no answer for " + millisSince(startNs) + " ms ("
                    + attempts + (attempts == 1 ? " attempt" : " attempts") + ") while decoding " + where()
                    + "; last error: " + last.getMessage(), last);
        }

        private String where() {
            return context.recordMetadata().map(m -> m.topic() + "-" + m.partition() + " offset " + m.offset())
                    .orElse("a record");
        }

        private long millisSince(long startNs) {
            return (clock.nanoTime() - startNs) / 1_000_000;
        }

        @Override
        public void close() {
            if (reporter != null) {
                health.answered(reporter); // this task stopped here; if it moves on, its new owner reports
            }
        }

        private Headers errorHeaders(Record<String, byte[]> record, Throwable error) {
            Headers headers = new RecordHeaders(record.headers().toArray());
            Throwable root = error;
            String message = String.valueOf(error.getMessage());
            if (message.length() > MAX_MESSAGE) {
                message = message.substring(0, MAX_MESSAGE);
            }
            headers.add(H_ERROR_CLASS, utf8(root.getClass().getName()));
            headers.add(H_ERROR_MESSAGE, utf8(message));
            context.recordMetadata().ifPresent(m -> {
                headers.add(H_SOURCE_TOPIC, utf8(m.topic()));
                headers.add(H_SOURCE_PARTITION, utf8(Integer.toString(m.partition())));
                headers.add(H_SOURCE_OFFSET, utf8(Long.toString(m.offset())));
            });
            return headers;
        }

        private static byte[] utf8(String s) {
            return s.getBytes(StandardCharsets.UTF_8);
        }
    }

    /**
     * The events' registry client, created on first use (a task's init, as before: a malformed URL fails there) with
     * one HTTP request per attempt (the decoder retries with its own back-off and hold bound), then shared by the
     * decoders of every task it was given to; thread-safe (the client is).
     */
    static final class SharedClient implements java.util.function.Supplier<SchemaRegistryClient> {
        private final String url;
        private final RegistryClientConfig clientConfig;
        private SchemaRegistryClient client;

        SharedClient(EventsSourceConfig config) {
            this.url = config.schemaRegistryUrl();
            this.clientConfig = config.registryClient().withMaxRetries(0);
        }

        @Override
        public synchronized SchemaRegistryClient get() {
            if (client == null) {
                client = SchemaRegistryClients.forUrl(url, clientConfig);
            }
            return client;
        }
    }

    /**
     * The record decoded, but its key is not the event's run id (e.g. a keyless producer): the events
     * of one run would then be spread over partitions, and each partition's task would publish an
     * incomplete fragment report under the same run id. Every event of a run must be produced with
     * the run id as its key (docs/topics-and-records.md, "Writing your own events").
     */
    public static final class EventKeyException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        /**
         * @param key   the record's key, or null
         * @param runId the event's run id
         */
        public EventKeyException(String key, String runId) {
            super("record key " + (key == null ? "null (a keyless producer?)" : "'" + key + "'")
                    + " is not the event's run id '" + runId + "': produce every event of a run with its run id as"
                    + " the key, so that the whole run reaches one partition");
        }
    }

    /**
     * The record decoded, but it claims more than an event may ({@link EventBounds}), or its value is
     * larger than {@link EventBounds#MAX_EVENT_BYTES}; the message names the field, value and bound.
     */
    public static final class EventOutOfBoundsException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        /**
         * @param message what is out of bounds; not null
         */
        public EventOutOfBoundsException(String message) {
            super(message);
        }
    }

    /** The record had no value to decode. */
    static final class NullValueException extends RuntimeException {
        NullValueException(String message) {
            super(message);
        }
    }
}
