package io.capstream.aggregator.window;

import com.datadoghq.sketch.ddsketch.DDSketch;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.EnumMap;
import java.util.Map;
import java.util.TreeMap;
import org.apache.avro.AvroRuntimeException;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * State-store form of a {@link WindowAggregate}: a version byte, then the Avro binary encoding of
 * one {@link #SCHEMA WindowAggregateState} record (no registry, no wire-format header: the store
 * and its changelog are internal to the windowed-summaries application). Each sketch is its
 * DDSketch {@code encode} blob ({@link Sketches#encode}), keyed by {@link Quantity} name.
 *
 * <p>Versions: {@value #VERSION} is written (version 3 and the bucket counts per {@link LatencyMeasure}, issue 31,
 * keyed by its name, an empty measure left out); version 3 (version 2 and the requests the client cancelled, issue 30)
 * is still read (its bucket counts are empty); version 2 is still read (its cancelled count is 0); version 1 (the hand-written layout of earlier
 * capstream versions) is still read, through {@link LegacyWindowAggregateDecoder}, so state
 * restored from an existing changelog topic or {@code --data-dir} keeps working; it is rewritten
 * in version {@value #VERSION} at the window's next update.
 *
 * <p>Version {@value #VERSION} is written and read field by field through Avro's binary encoder and decoder
 * ({@link AggregateBinary}: the same bytes as Avro's generic writer, issue 31); versions 2 and 3 are read through Avro's generic reader. Stateless and thread-safe (Avro's generic
 * datum readers are thread-safe; decoders and buffers are made per call). Null serialises to null and back.
 */
public final class WindowAggregateSerde implements Serde<WindowAggregate> {
    /** Version byte written before the Avro record. */
    public static final byte VERSION = 4;
    /** The version before bucket counts were kept (issue 31): still read, with empty bucket counts. */
    static final byte VERSION_3 = 3;
    /** The version before cancelled requests were counted (issue 30): still read, with cancelled 0. */
    static final byte VERSION_2 = 2;

    /** Avro schema of the state record of version 2 (still read). */
    static final Schema SCHEMA_V2 = SchemaBuilder.record("WindowAggregateState")
            .namespace("io.capstream.aggregator.window")
            .doc("One window of one key (target, model, context bucket); internal state, not a topic record.")
            .fields()
            .name("relative_accuracy").doc("DDSketch relative accuracy of every sketch, e.g. 0.01")
            .type().doubleType().noDefault()
            .name("completed").doc("completed requests").type().longType().noDefault()
            .name("failed").doc("failed requests").type().longType().noDefault()
            .name("prompt_tokens").doc("sum of prompt tokens of completed requests").type().longType().noDefault()
            .name("output_tokens").doc("sum of output tokens of completed requests").type().longType().noDefault()
            .name("good_requests").doc("completed requests meeting every per-request SLO")
            .type().longType().noDefault()
            .name("failures_by_type").doc("failed requests per error type")
            .type().map().values().longType().noDefault()
            .name("sketches").doc("DDSketch encode() bytes per Quantity name")
            .type().map().values().bytesType().noDefault()
            .endRecord();

    /** Avro schema of the state record of version 3 (still read): version 2's and the cancelled requests. */
    static final Schema SCHEMA_V3 = withField(SCHEMA_V2,
            new Schema.Field("cancelled", Schema.create(Schema.Type.LONG),
            "requests the client cancelled on purpose (issue 30)", 0L));

    /** One measure's bucket counts in the state record (the bounds are {@link LatencyMeasure#BOUNDS_S}). */
    private static final Schema BUCKETS = SchemaBuilder.record("BucketCountsState")
            .namespace("io.capstream.aggregator.window")
            .fields()
            .name("counts").doc("values per bucket, not cumulative, LatencyMeasure.BOUNDS_S plus +Inf")
            .type().array().items().longType().noDefault()
            .name("sum_ns").doc("sum of the values, whole nanoseconds").type().longType().noDefault()
            .endRecord();

    /** Avro schema of the state record (version {@value #VERSION}): version 3's and the bucket counts (issue 31). */
    public static final Schema SCHEMA = withField(SCHEMA_V3,
            new Schema.Field("histograms", Schema.createMap(BUCKETS),
            "bucket counts per LatencyMeasure name (issue 31); a measure without values may be absent", Map.of()));

    /** @return a record schema with {@code base}'s name, doc and fields (copied), then {@code added} */
    private static Schema withField(Schema base, Schema.Field added) {
        java.util.List<Schema.Field> fields = new java.util.ArrayList<>();
        for (Schema.Field f : base.getFields()) {
            fields.add(new Schema.Field(f, f.schema()));
        }
        fields.add(added);
        return Schema.createRecord(base.getName(), base.getDoc(), base.getNamespace(), false, fields);
    }

    private static final int F_ACCURACY = 0;
    private static final int F_COMPLETED = 1;
    private static final int F_FAILED = 2;
    private static final int F_PROMPT = 3;
    private static final int F_OUTPUT = 4;
    private static final int F_GOOD = 5;
    private static final int F_FAILURES = 6;
    private static final int F_SKETCHES = 7;
    private static final int F_CANCELLED = 8;
    private static final int F_HISTOGRAMS = 9;

    /** Reads version 2 into the current record (cancelled takes its default, 0; histograms empty). */
    private final GenericDatumReader<GenericRecord> readerV2 = new GenericDatumReader<>(SCHEMA_V2, SCHEMA);
    /** Reads version 3 into the current record (histograms take their default, empty). */
    private final GenericDatumReader<GenericRecord> readerV3 = new GenericDatumReader<>(SCHEMA_V3, SCHEMA);

    /**
     * @param aggregate the aggregate; not null
     * @return version byte {@value #VERSION} followed by the Avro record
     */
    public byte[] encode(WindowAggregate aggregate) {
        return AggregateBinary.encode(new byte[0], VERSION, aggregate); // Avro's binary encoding of SCHEMA, field by field
    }

    /**
     * @param data bytes of {@link #encode} (version {@value #VERSION}) or of an earlier capstream
     *             version (version 1); not null
     * @return the aggregate
     * @throws SerializationException for an empty array, an unknown version, truncated or
     *                                trailing bytes, or an unknown quantity name
     */
    public WindowAggregate decode(byte[] data) {
        if (data.length == 0) {
            throw new SerializationException("empty WindowAggregate");
        }
        if (data[0] == LegacyWindowAggregateDecoder.VERSION) {
            return LegacyWindowAggregateDecoder.decode(data);
        }
        if (data[0] == VERSION) {
            return decodeCurrent(data, 1);
        }
        if (data[0] != VERSION_3 && data[0] != VERSION_2) {
            throw new SerializationException("unknown WindowAggregate version " + data[0]);
        }
        try {
            BinaryDecoder decoder = DecoderFactory.get().binaryDecoder(data, 1, data.length - 1, null);
            GenericRecord r = (data[0] == VERSION_2 ? readerV2 : readerV3)
                    .read(null, decoder);
            if (!decoder.isEnd()) {
                throw new SerializationException("trailing bytes after WindowAggregate");
            }
            Map<String, Long> failures = new TreeMap<>();
            ((Map<?, ?>) r.get(F_FAILURES)).forEach((k, v) -> failures.put(k.toString(), (Long) v));
            Map<Quantity, DDSketch> sketches = new EnumMap<>(Quantity.class);
            ((Map<?, ?>) r.get(F_SKETCHES)).forEach((k, v) -> {
                ByteBuffer b = ((ByteBuffer) v).duplicate();
                byte[] enc = new byte[b.remaining()];
                b.get(enc);
                sketches.put(Quantity.valueOf(k.toString()), Sketches.decode(enc));
            });
            Map<LatencyMeasure, BucketCounts> histograms = new EnumMap<>(LatencyMeasure.class);
            ((Map<?, ?>) r.get(F_HISTOGRAMS)).forEach((k, v) -> {
                GenericRecord b = (GenericRecord) v;
                long[] counts = ((java.util.List<?>) b.get(0)).stream().mapToLong(x -> (Long) x).toArray();
                histograms.put(LatencyMeasure.valueOf(k.toString()), new BucketCounts(counts, (Long) b.get(1)));
            });
            return new WindowAggregate((Double) r.get(F_ACCURACY), (Long) r.get(F_COMPLETED), (Long) r.get(F_FAILED),
                    (Long) r.get(F_CANCELLED), (Long) r.get(F_PROMPT), (Long) r.get(F_OUTPUT), (Long) r.get(F_GOOD), failures,
                    sketches, histograms);
        } catch (IOException | AvroRuntimeException | IllegalArgumentException | UncheckedIOException e) {
            throw new SerializationException("cannot read WindowAggregate: " + e.getMessage(), e);
        }
    }

    /**
     * Reads a version-{@value #VERSION} record (Avro's binary encoding of {@link #SCHEMA}) by hand
     * ({@link AggregateBinary}, through Avro's binary decoder: what Avro's generic reader gives, without its generic
     * record).
     *
     * @param data   holds the record; not null
     * @param offset where the record begins, after the version byte
     * @return the aggregate
     * @throws SerializationException for truncated or trailing bytes, or an unknown quantity or measure name
     */
    static WindowAggregate decodeCurrent(byte[] data, int offset) {
        try {
            return AggregateBinary.decode(data, offset);
        } catch (IOException | AvroRuntimeException | IllegalArgumentException | UncheckedIOException e) {
            throw new SerializationException("cannot read WindowAggregate: " + e.getMessage(), e);
        }
    }

    @Override
    public Serializer<WindowAggregate> serializer() {
        return (topic, aggregate) -> aggregate == null ? null : encode(aggregate);
    }

    @Override
    public Deserializer<WindowAggregate> deserializer() {
        return (topic, data) -> data == null ? null : decode(data);
    }
}
