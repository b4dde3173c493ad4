package io.capstream.cli.tail;

import io.capstream.aggregator.window.WindowTopologyConfig;
import io.capstream.schemas.registry.SchemaRegistryException;
import io.capstream.schemas.text.DurationLabel;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import org.apache.kafka.common.errors.RecordDeserializationException;

/**
 * The lines {@code capstream tail} prints on stderr (stdout carries the records only, so pipes are unaffected): with
 * {@code --follow}, as soon as it is subscribed, what it follows, from where, and what it waits for (a follow from now
 * on prints nothing else until a record comes: minutes for a window summary); without, when it printed no record. Both
 * name the topic, where reading started and the partitions read the same way; and one line per record skipped because
 * it could not be decoded. Stateless.
 */
public final class TailNotice {
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss'Z'")
            .withZone(ZoneOffset.UTC);

    private TailNotice() {
    }

    /**
     * @param kind       the topic read; not null
     * @param start      where reading started; not null
     * @param sinceMs    with {@link TopicTailer.Start#TIME}: the first record time, epoch ms (now less {@code --since})
     * @param partitions the topic's partitions (0: it does not exist)
     * @param bootstrap  the bootstrap servers, as given (masked on the console)
     * @return e.g. {@code capstream tail: following capstream.reports from now on (3 partitions on 127.0.0.1:9092); a
     *         report comes when a run ends; Ctrl-C to stop}
     */
    public static String following(TailKind kind, TopicTailer.Start start, long sinceMs, int partitions,
                                   String bootstrap) {
        return "capstream tail: following " + where(kind, start, sinceMs, partitions, bootstrap)
                + (start == TopicTailer.Start.END ? "" : ", then new records") + "; " + awaited(kind)
                + "; Ctrl-C to stop";
    }

    /**
     * @param kind       the topic read; not null
     * @param start      where reading started; not null
     * @param sinceMs    as in {@link #following}
     * @param partitions as in {@link #following}
     * @param bootstrap  as in {@link #following}
     * @param filtered   whether {@code --target} or {@code --model} was given
     * @param skipped    records skipped because they could not be decoded (each had its {@link #skipped} line)
     * @return e.g. {@code capstream tail: no records in capstream.alerts from the beginning (3 partitions on
     *         127.0.0.1:9092)}, followed by {@code ; 2 records skipped, undecodable} when some were skipped
     */
    public static String nothing(TailKind kind, TopicTailer.Start start, long sinceMs, int partitions,
                                 String bootstrap, boolean filtered, long skipped) {
        return "capstream tail: no records " + (filtered ? "of --target/--model " : "") + "in "
                + where(kind, start, sinceMs, partitions, bootstrap)
                + (skipped == 0 ? "" : "; " + skipped + (skipped == 1 ? " record" : " records") + " skipped, undecodable");
    }

    /**
     * @param e what the consumer threw at a record it could not decode; not null
     * @return e.g. {@code capstream tail: skipped the record at capstream.reports-0 offset 164: its schema id 3 is
     *         unknown to this registry (written with another registry, e.g. by a run on this Kafka without
     *         --schema-registry-url)}; for any other reason, the deserializer's message
     */
    public static String skipped(RecordDeserializationException e) {
        String why = null;
        for (Throwable t = e; t != null && why == null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SchemaRegistryException r && r.status() == 404) {
                int id = schemaId(e.valueBuffer());
                why = "its schema id " + (id < 0 ? "" : id + " ") + "is unknown to this registry (written with another"
                        + " registry, e.g. by a run on this Kafka without --schema-registry-url)";
            }
        }
        if (why == null) {
            why = e.getCause() != null && e.getCause().getMessage() != null ? e.getCause().getMessage()
                    : e.getMessage();
        }
        return "capstream tail: skipped the record at " + e.topicPartition() + " offset " + e.offset() + ": " + why;
    }

    /** @return the schema id of a Confluent-framed value, or -1 when there is none to read */
    private static int schemaId(ByteBuffer value) {
        if (value == null || value.remaining() < 5 || value.get(value.position()) != 0) {
            return -1;
        }
        return value.getInt(value.position() + 1);
    }

    private static String where(TailKind kind, TopicTailer.Start start, long sinceMs, int partitions,
                                String bootstrap) {
        String from = switch (start) {
            case BEGINNING -> "from the beginning";
            case TIME -> "since " + TIME.format(Instant.ofEpochMilli(sinceMs));
            case END -> "from now on";
        };
        String parts = partitions == 0 ? "it does not exist on " + bootstrap + " yet"
                : partitions + (partitions == 1 ? " partition" : " partitions") + " on " + bootstrap;
        return kind.topic() + " " + from + " (" + parts + ")";
    }

    /**
     * @return what a follow waits for: when the aggregator or a run writes the next record of this kind (tail does not
     *         know the running aggregator's window and grace, so a summary's follow names them with their defaults
     *         rather than a time)
     */
    static String awaited(TailKind kind) {
        return switch (kind) {
            case REPORTS -> "a report comes when a run ends";
            case SUMMARIES -> "waiting for the next window the aggregator closes (at the window's end + grace:"
                    + " capstream aggregate's --window and --grace, "
                    + DurationLabel.of(WindowTopologyConfig.DEFAULT_WINDOW) + " and "
                    + DurationLabel.of(WindowTopologyConfig.DEFAULT_GRACE) + " by default)";
            case ALERTS -> "an alert comes when a window the aggregator closes breaches or recovers an SLO";
            case CHANGES -> "a change point comes when a window the aggregator closes shows a lasting shift";
            case SWEEPS -> "a sweep's curve comes again as each of its steps ends";
            case SERVER_METRICS -> "a run's scrapes of its endpoint's metrics come when it ends (--server-metrics)";
        };
    }
}
