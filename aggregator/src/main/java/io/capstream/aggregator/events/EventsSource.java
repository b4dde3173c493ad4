package io.capstream.aggregator.events;

import io.capstream.schemas.avro.RunEvent;
import io.capstream.schemas.registry.RegistryClientConfig;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.Branched;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;

/**
 * The shared source of every aggregator topology: reads {@code capstream.events} as raw bytes,
 * decodes each value as a {@link RunEvent} (Confluent wire format, schema from the registry), and
 * sends records that cannot be decoded, and events outside {@link EventBounds} (e.g. a RunStarted
 * claiming more than 100,000 requests, error class {@link EventOutOfBoundsException}), to the
 * dead-letter topic with their original key and bytes; processing continues with the next record.
 *
 * <p>Headers added to a dead-letter record (UTF-8 strings): {@value #H_ERROR_CLASS},
 * {@value #H_ERROR_MESSAGE}, {@value #H_SOURCE_TOPIC}, {@value #H_SOURCE_PARTITION},
 * {@value #H_SOURCE_OFFSET}. The original headers are kept. A null value (tombstone) is also
 * dead-lettered. Decoding is the Confluent wire format of {@code SpecificAvroSerde<RunEvent>}, with a
 * cached reader per writer schema ({@link RunEventDecoder}).
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

    private static final int MAX_MESSAGE = 2048;

    private EventsSource() {
    }

    /**
     * Adds the source, the decoder and the dead-letter sink to {@code builder}.
     *
     * @param builder the builder; not null
     * @param config  topics and registry; not null
     * @return the decoded events, keyed by run id (never null values)
     */
    public static KStream<String, RunEvent> stream(StreamsBuilder builder, EventsSourceConfig config) {
        KStream<String, byte[]> raw = builder.stream(config.eventsTopic(),
                Consumed.with(Serdes.String(), Serdes.ByteArray()).withName("capstream-events-source"));
        KStream<String, Decoded> decoded = raw.process(() -> new DecodeProcessor(config.schemaRegistryUrl(), config.registryClient()),
                Named.as("capstream-events-decode"));
        var branches = decoded.split(Named.as("capstream-events-"))
                .branch((k, v) -> v.event() == null, Branched.as("bad"))
                .defaultBranch(Branched.as("ok"));
        branches.get("capstream-events-bad")
                .mapValues(Decoded::raw, Named.as("capstream-events-dlq-bytes"))
                .to(config.dlqTopic(), Produced.with(Serdes.String(), Serdes.ByteArray())
                        .withName("capstream-events-dlq-sink"));
        return branches.get("capstream-events-ok").mapValues(Decoded::event, Named.as("capstream-events-decoded"));
    }

    /** A decoded event, or (event == null) the raw bytes of a record that could not be decoded. */
    record Decoded(RunEvent event, byte[] raw) {
    }

    /** Decodes one record; on failure forwards the raw bytes with error headers. */
    static final class DecodeProcessor implements Processor<String, byte[], String, Decoded> {
        private final String registryUrl;
        private final RegistryClientConfig registryClient;
        private ProcessorContext<String, Decoded> context;
        private RunEventDecoder decoder;

        DecodeProcessor(String registryUrl, RegistryClientConfig registryClient) {
            this.registryUrl = registryUrl;
            this.registryClient = registryClient;
        }

        @Override
        public void init(ProcessorContext<String, Decoded> context) {
            this.context = context;
            this.decoder = new RunEventDecoder(registryUrl, registryClient);
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
                    RunEvent event = decoder.decode(topic, record.value());
                    String outOfBounds = event == null || event.getPayload() == null ? null : EventBounds.violation(event);
                    if (outOfBounds != null) {
                        error = new EventOutOfBoundsException("event " + event.getEventId() + " of run "
                                + event.getRunId() + ": " + outOfBounds);
                    } else if (event != null && event.getPayload() != null) {
                        context.forward(record.withValue(new Decoded(event, null)));
                        return;
                    } else {
                        error = new NullValueException("decoded to null");
                    }
                }
            } catch (RuntimeException e) {
                error = e;
            }
            context.forward(record.withValue(new Decoded(null, record.value())).withHeaders(errorHeaders(record, error)));
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
