package io.capstream.cli.tail;

import io.capstream.schemas.registry.SchemaRegistryUnavailableException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.IntConsumer;
import java.util.function.Predicate;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RecordDeserializationException;
import org.apache.kafka.common.errors.WakeupException;

/**
 * Reads one topic with a plain consumer (assigned partitions, no consumer group, read_committed):
 * from the beginning, from a point in time (record timestamps), or from the end; prints every
 * record that passes the filter; without {@code follow} returns once it has read up to the end
 * offsets seen at the start, with {@code follow} until {@link #stop()}. A record the value deserializer rejects (e.g.
 * its schema id is unknown to the registry: written with another one) is skipped, the consumer seeking past it, and
 * reported to the caller; one rejected because the registry did not answer stops the read instead.
 */
public final class TopicTailer implements AutoCloseable {
    /** Where reading starts. */
    public enum Start {
        /** The earliest offset. */
        BEGINNING,
        /** The first record at or after a timestamp. */
        TIME,
        /** Only records written from now on. */
        END
    }

    private final org.apache.kafka.clients.consumer.Consumer<String, SpecificRecord> consumer;
    private final String topic;
    private long skipped;

    /**
     * @param consumer a consumer with String keys and the topic's Avro value deserializer (closed by {@link #close()})
     * @param topic    the topic
     */
    public TopicTailer(org.apache.kafka.clients.consumer.Consumer<String, SpecificRecord> consumer, String topic) {
        this.consumer = Objects.requireNonNull(consumer, "consumer");
        this.topic = Objects.requireNonNull(topic, "topic");
    }

    /**
     * Reads and prints.
     *
     * @param start   where to start
     * @param sinceMs for {@link Start#TIME}: epoch ms
     * @param follow  keep reading until {@link #stop()}
     * @param filter  records to print
     * @param sink    printer
     * @param onSkip  called with each record skipped because it could not be decoded (the consumer has already moved
     *                past it)
     * @param subscribed called once with the number of partitions (0: the topic does not exist) when they are assigned,
     *                the start positions set and the end offsets read (the broker answered), before the first record
     * @return records printed
     * @throws RecordDeserializationException when a record could not be decoded because the schema registry did not
     *                                        answer ({@link SchemaRegistryUnavailableException} in its causes)
     * @throws org.apache.kafka.common.KafkaException on other Kafka errors
     */
    public long run(Start start, long sinceMs, boolean follow, Predicate<SpecificRecord> filter,
                    Consumer<SpecificRecord> sink, Consumer<RecordDeserializationException> onSkip,
                    IntConsumer subscribed) {
        List<TopicPartition> parts = consumer.partitionsFor(topic, Duration.ofSeconds(30)).stream()
                .map(p -> new TopicPartition(topic, p.partition())).toList();
        consumer.assign(parts);
        switch (start) {
            case BEGINNING -> consumer.seekToBeginning(parts);
            case END -> consumer.seekToEnd(parts);
            case TIME -> {
                Map<TopicPartition, Long> query = new HashMap<>();
                parts.forEach(p -> query.put(p, sinceMs));
                Map<TopicPartition, OffsetAndTimestamp> found = consumer.offsetsForTimes(query);
                for (TopicPartition p : parts) {
                    OffsetAndTimestamp o = found.get(p);
                    if (o == null) {
                        consumer.seekToEnd(List.of(p));
                    } else {
                        consumer.seek(p, o.offset());
                    }
                }
            }
            default -> throw new IllegalStateException();
        }
        Map<TopicPartition, Long> end = consumer.endOffsets(parts);
        subscribed.accept(parts.size());
        long printed = 0;
        try {
            while (true) {
                if (!follow && caughtUp(parts, end)) {
                    return printed;
                }
                Iterable<ConsumerRecord<String, SpecificRecord>> polled;
                try {
                    polled = consumer.poll(Duration.ofMillis(500));
                } catch (RecordDeserializationException e) {
                    if (SchemaRegistryUnavailableException.in(e) != null) {
                        throw e; // says nothing about the record: the next one would fail the same way
                    }
                    // the records before it were returned by the previous poll; its position stays at it until seeked
                    consumer.seek(e.topicPartition(), e.offset() + 1);
                    skipped++;
                    onSkip.accept(e);
                    continue;
                }
                for (ConsumerRecord<String, SpecificRecord> r : polled) {
                    if (r.value() != null && filter.test(r.value())) {
                        sink.accept(r.value());
                        printed++;
                    }
                }
            }
        } catch (WakeupException e) {
            return printed;
        }
    }

    /** @return records skipped so far because they could not be decoded */
    public long skipped() {
        return skipped;
    }

    private boolean caughtUp(List<TopicPartition> parts, Map<TopicPartition, Long> end) {
        for (TopicPartition p : parts) {
            if (consumer.position(p) < end.getOrDefault(p, 0L)) {
                return false;
            }
        }
        return true;
    }

    /** Makes {@link #run} return (from another thread, e.g. a shutdown hook). */
    public void stop() {
        consumer.wakeup();
    }

    @Override
    public void close() {
        consumer.close(Duration.ofSeconds(5));
    }
}
