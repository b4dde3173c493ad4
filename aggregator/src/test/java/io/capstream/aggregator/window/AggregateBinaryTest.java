package io.capstream.aggregator.window;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.Test;

/**
 * The hand-written state record (issue 31) is byte for byte what Avro's generic writer gives for
 * {@link WindowAggregateSerde#SCHEMA}, and reads what Avro writes, for aggregates with and without every part.
 */
class AggregateBinaryTest {
    private final WindowAggregateSerde serde = new WindowAggregateSerde();

    /** The state record as {@link WindowAggregateSerde} wrote it before: through Avro's generic datum writer. */
    private static byte[] avroEncode(WindowAggregate a) throws IOException {
        Map<String, ByteBuffer> sketches = new LinkedHashMap<>();
        for (Quantity q : Quantity.values()) {
            sketches.put(q.name(), ByteBuffer.wrap(Sketches.encode(a.sketch(q))));
        }
        GenericData.Record r = new GenericData.Record(WindowAggregateSerde.SCHEMA);
        r.put("relative_accuracy", a.relativeAccuracy());
        r.put("completed", a.completed());
        r.put("failed", a.failed());
        r.put("prompt_tokens", a.promptTokens());
        r.put("output_tokens", a.outputTokens());
        r.put("good_requests", a.goodRequests());
        r.put("failures_by_type", a.failuresByType());
        r.put("sketches", sketches);
        r.put("cancelled", a.cancelled());
        Map<String, GenericRecord> histograms = new LinkedHashMap<>();
        org.apache.avro.Schema buckets = WindowAggregateSerde.SCHEMA.getField("histograms").schema().getValueType();
        for (LatencyMeasure m : LatencyMeasure.values()) {
            BucketCounts h = a.histogram(m);
            if (h.count() > 0) {
                GenericData.Record b = new GenericData.Record(buckets);
                List<Long> counts = new ArrayList<>();
                for (long c : h.counts()) {
                    counts.add(c);
                }
                b.put(0, counts);
                b.put(1, h.sumNs());
                histograms.put(m.name(), b);
            }
        }
        r.put("histograms", histograms);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(WindowAggregateSerde.VERSION);
        BinaryEncoder e = EncoderFactory.get().directBinaryEncoder(out, null);
        new GenericDatumWriter<GenericRecord>(WindowAggregateSerde.SCHEMA).write(r, e);
        e.flush();
        return out.toByteArray();
    }

    private static List<WindowAggregate> aggregates() {
        List<WindowAggregate> all = new ArrayList<>();
        all.add(new WindowAggregate(0.01));
        WindowAggregate failedOnly = new WindowAggregate(0.02);
        failedOnly.addFailed("HttpStatus503");
        failedOnly.addFailed(null);
        failedOnly.addFailed("Zeitüberschreitung");
        failedOnly.addCancelled();
        all.add(failedOnly);
        Random random = new Random(31);
        for (int n : new int[] {1, 7, 300}) {
            WindowAggregate a = new WindowAggregate(0.01);
            for (int i = 0; i < n; i++) {
                List<Integer> gaps = new ArrayList<>();
                for (int g = 0; g < i % 9; g++) {
                    gaps.add(random.nextInt(2_000_000));
                }
                double ttft = random.nextDouble() * 90_000;
                a.addCompleted(new RequestSample(ttft, ttft * 0.9, ttft + random.nextDouble() * 1e6,
                        i % 4 == 0 ? null : random.nextDouble() * 100, i % 5 == 0 ? null : random.nextDouble() * 200,
                        i % 3 == 0 ? null : random.nextDouble() * 1e5, i % 2 == 0 ? null : (long) random.nextInt(100_000),
                        random.nextInt(4096), i % 11 != 0, gaps.isEmpty() ? null : gaps), i % 2 == 0);
                if (i % 13 == 0) {
                    a.addFailed("E" + (i % 3));
                }
            }
            all.add(a);
        }
        return all;
    }

    @Test
    void writesWhatAvrosGenericWriterWrote() throws IOException {
        for (WindowAggregate a : aggregates()) {
            byte[] avro = avroEncode(a);
            assertThat(serde.encode(a)).as("%d completed, %d failed: the hand-written record against Avro's (%d bytes)",
                    a.completed(), a.failed(), avro.length).isEqualTo(avro);
        }
    }

    @Test
    void readsWhatAvroWritesToTheSameAggregate() throws IOException {
        for (WindowAggregate a : aggregates()) {
            byte[] avro = avroEncode(a);
            WindowAggregate read = serde.decode(avro);
            assertThat(avroEncode(read)).as("%d completed: read back and written again by Avro", a.completed())
                    .isEqualTo(avro);
            // and what Avro's generic reader reads from it: the same record
            GenericRecord viaAvro = new GenericDatumReader<GenericRecord>(WindowAggregateSerde.SCHEMA).read(null,
                    DecoderFactory.get().binaryDecoder(avro, 1, avro.length - 1, null));
            assertThat(read.failuresByType().toString()).as("failures by type")
                    .isEqualTo(new java.util.TreeMap<>(stringKeys((Map<?, ?>) viaAvro.get("failures_by_type"))).toString());
            assertThat(read.cancelled()).as("cancelled").isEqualTo(viaAvro.get("cancelled"));
        }
    }

    private static Map<String, Object> stringKeys(Map<?, ?> m) {
        Map<String, Object> out = new LinkedHashMap<>();
        m.forEach((k, v) -> out.put(k.toString(), v));
        return out;
    }

    @Test
    void readsMapsInSeveralBlocksAndBlocksWithTheirSize() {
        // failures_by_type {"a": 1, "b": 2} as two blocks, the second with a negative count and its byte size
        byte[] head = {WindowAggregateSerde.VERSION, 0x7b, 0x14, (byte) 0xae, 0x47, (byte) 0xe1, 0x7a, (byte) 0x84,
                0x3f, 0, 0, 0, 0, 0};
        byte[] failures = {2, 2, 'a', 2, 1, 6, 2, 'b', 4, 0};
        byte[] empty = serde.encode(new WindowAggregate(0.01));
        // the empty aggregate's record after its failures map (one 0 byte at offset head.length)
        byte[] tail = Arrays.copyOfRange(empty, head.length + 1, empty.length);
        byte[] data = new byte[head.length + failures.length + tail.length];
        System.arraycopy(head, 0, data, 0, head.length);
        System.arraycopy(failures, 0, data, head.length, failures.length);
        System.arraycopy(tail, 0, data, head.length + failures.length, tail.length);
        assertThat(Arrays.copyOf(empty, head.length)).as("the fixture's head: version 4, accuracy 0.01, zero counts")
                .isEqualTo(head);

        WindowAggregate read = serde.decode(data);

        assertThat(read.failuresByType()).as("failures read from two blocks").isEqualTo(Map.of("a", 1L, "b", 2L));
    }

    @Test
    void truncatedOrTrailingBytesAreRefused() {
        byte[] ok = serde.encode(aggregates().get(3));
        for (int cut : new int[] {1, 5, 12, ok.length / 2, ok.length - 1}) {
            byte[] truncated = Arrays.copyOf(ok, cut);
            assertThatThrownBy(() -> serde.decode(truncated)).as("cut to %d of %d bytes", cut, ok.length)
                    .isInstanceOf(SerializationException.class);
        }
        byte[] trailing = Arrays.copyOf(ok, ok.length + 1);
        assertThatThrownBy(() -> serde.decode(trailing)).as("a byte trailing")
                .isInstanceOf(SerializationException.class).hasMessageContaining("trailing");
    }
}
