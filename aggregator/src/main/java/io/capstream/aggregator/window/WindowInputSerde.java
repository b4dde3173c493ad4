package io.capstream.aggregator.window;

import io.capstream.schemas.avro.RunEvent;
import io.capstream.schemas.serde.AvroWireFormat;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * The repartition topic's value format ({@link WindowInput}): a hand-written binary encoding of the few values the
 * window step needs, a few dozen bytes per request (plus its chunk gaps), instead of the whole event in Avro.
 *
 * <p>Layout: the byte {@value #MAGIC} (never Avro's wire-format magic byte 0), a kind byte, then per kind: a completed
 * request a flags byte (which nullable values follow, streamed, chunk gaps present), TTFT, TTFO and E2E (doubles),
 * ITL, decode and prefill rates (doubles) and prompt tokens (varlong) when present, output tokens (varlong), the
 * chunk gaps (varint count, varints); a failed request a flags byte (error type present, cancelled) and the error
 * type; a heartbeat a flags byte (target, model present), target, model, and the scraped metrics (varint count,
 * name and double each); a partial aggregate (issue 31) the window start (varlong) and the aggregate's state-store
 * form ({@link WindowAggregateSerde}, with its version byte) to the end. Strings are UTF-8 with a varint length; varints and varlongs zig-zag, 7 bits a byte.
 * Null (the progress records) stays null.
 *
 * <p>Records written by versions before this one (the whole event, Avro with a schema id, magic byte 0) are still
 * read: a restart after an upgrade may find them in the repartition topic. Not thread-safe beyond what Kafka needs:
 * the serializer and deserializer keep no state.
 */
final class WindowInputSerde implements Serde<WindowInput> {
    /** First byte of every value in this format (Avro's wire format starts with 0). */
    static final byte MAGIC = 'W';
    private static final byte COMPLETED = 1;
    private static final byte NO_ROW = 2;
    private static final byte FAILED = 3;
    private static final byte BEAT = 4;
    private static final byte PARTIAL = 5;

    private final Deserializer<RunEvent> legacy;

    /**
     * @param legacy reads the values written by versions before this one (Avro {@code RunEvent}s); not null
     */
    WindowInputSerde(Deserializer<RunEvent> legacy) {
        this.legacy = legacy;
    }

    @Override
    public Serializer<WindowInput> serializer() {
        return (topic, value) -> value == null ? null : encode(value);
    }

    @Override
    public Deserializer<WindowInput> deserializer() {
        return new Deserializer<>() {
            @Override
            public WindowInput deserialize(String topic, byte[] data) {
                return decode(topic, null, data);
            }

            @Override
            public WindowInput deserialize(String topic, Headers headers, byte[] data) {
                return decode(topic, headers, data);
            }
        };
    }

    /**
     * @param value a value; not null
     * @return its encoding
     */
    static byte[] encode(WindowInput value) {
        if (value instanceof WindowInput.Completed c) {
            RequestSample s = c.sample();
            List<Integer> gaps = s.chunkGapsUs();
            ByteBuffer b = ByteBuffer.allocate(3 + 8 * 6 + 10 * 2 + 5 + (gaps == null ? 0 : 5 * gaps.size()));
            b.put(MAGIC).put(COMPLETED);
            int flags = (s.itlMs() != null ? 1 : 0) | (s.decodeTokS() != null ? 2 : 0) | (s.prefillTokS() != null ? 4 : 0)
                    | (s.promptTokens() != null ? 8 : 0) | (s.streamed() ? 16 : 0) | (gaps != null ? 32 : 0);
            b.put((byte) flags).putDouble(s.ttftMs()).putDouble(s.ttfoMs()).putDouble(s.e2eMs());
            if (s.itlMs() != null) {
                b.putDouble(s.itlMs());
            }
            if (s.decodeTokS() != null) {
                b.putDouble(s.decodeTokS());
            }
            if (s.prefillTokS() != null) {
                b.putDouble(s.prefillTokS());
            }
            if (s.promptTokens() != null) {
                writeVarlong(s.promptTokens(), b);
            }
            writeVarlong(s.outputTokens(), b);
            if (gaps != null) {
                writeVarint(gaps.size(), b);
                for (Integer g : gaps) {
                    writeVarint(g, b);
                }
            }
            return Arrays.copyOf(b.array(), b.position());
        } else if (value instanceof WindowInput.Partial p) {
            ByteBuffer b = ByteBuffer.allocate(2 + 10);
            b.put(MAGIC).put(PARTIAL);
            writeVarlong(p.windowStart(), b);
            // the aggregate's state-store form written straight after the start (one buffer, no copy of it)
            return AggregateBinary.encode(Arrays.copyOf(b.array(), b.position()), WindowAggregateSerde.VERSION,
                    p.aggregate());
        } else if (value instanceof WindowInput.NoRow) {
            return new byte[] {MAGIC, NO_ROW};
        } else if (value instanceof WindowInput.Failed f) {
            byte[] type = f.errorType() == null ? new byte[0] : f.errorType().getBytes(StandardCharsets.UTF_8);
            ByteBuffer b = ByteBuffer.allocate(3 + 5 + type.length);
            b.put(MAGIC).put(FAILED).put((byte) ((f.errorType() != null ? 1 : 0) | (f.cancelled() ? 2 : 0)));
            if (f.errorType() != null) {
                putBytes(b, type);
            }
            return Arrays.copyOf(b.array(), b.position());
        }
        WindowInput.Beat h = (WindowInput.Beat) value;
        List<byte[]> strings = new ArrayList<>();
        int size = 3 + 5;
        for (String s : new String[] {h.target(), h.model()}) {
            if (s != null) {
                strings.add(s.getBytes(StandardCharsets.UTF_8));
            }
        }
        List<byte[]> names = new ArrayList<>();
        List<Double> values = new ArrayList<>();
        h.samples().forEach((k, v) -> {
            names.add(k.getBytes(StandardCharsets.UTF_8));
            values.add(v);
        });
        for (byte[] s : strings) {
            size += 5 + s.length;
        }
        for (byte[] n : names) {
            size += 5 + n.length + 8;
        }
        ByteBuffer b = ByteBuffer.allocate(size);
        b.put(MAGIC).put(BEAT).put((byte) ((h.target() != null ? 1 : 0) | (h.model() != null ? 2 : 0)));
        strings.forEach(s -> putBytes(b, s));
        writeVarint(names.size(), b);
        for (int i = 0; i < names.size(); i++) {
            putBytes(b, names.get(i));
            b.putDouble(values.get(i));
        }
        return Arrays.copyOf(b.array(), b.position());
    }

    private WindowInput decode(String topic, Headers headers, byte[] data) {
        if (data == null) {
            return null;
        }
        if (data.length > 0 && data[0] == AvroWireFormat.MAGIC) {
            // the whole event, as versions before this one wrote it
            RunEvent event = headers == null ? legacy.deserialize(topic, data) : legacy.deserialize(topic, headers, data);
            return WindowInput.of(event).orElse(null);
        }
        return decode(data);
    }

    /**
     * @param data a value in this format; not null
     * @return the value
     * @throws SerializationException when {@code data} is not in this format
     */
    static WindowInput decode(byte[] data) {
        if (data.length < 2 || data[0] != MAGIC) {
            throw new SerializationException("not a window input (first byte " + (data.length == 0 ? "none" : data[0])
                    + ", expected " + MAGIC + "), " + data.length + " bytes");
        }
        try {
            ByteBuffer b = ByteBuffer.wrap(data, 2, data.length - 2);
            switch (data[1]) {
                case COMPLETED -> {
                    int flags = b.get();
                    double ttft = b.getDouble();
                    double ttfo = b.getDouble();
                    double e2e = b.getDouble();
                    Double itl = (flags & 1) != 0 ? b.getDouble() : null;
                    Double decode = (flags & 2) != 0 ? b.getDouble() : null;
                    Double prefill = (flags & 4) != 0 ? b.getDouble() : null;
                    Long prompt = (flags & 8) != 0 ? readVarlong(b) : null;
                    long out = readVarlong(b);
                    List<Integer> gaps = null;
                    if ((flags & 32) != 0) {
                        int n = readVarint(b);
                        gaps = new ArrayList<>(n);
                        for (int i = 0; i < n; i++) {
                            gaps.add(readVarint(b));
                        }
                    }
                    return new WindowInput.Completed(new RequestSample(ttft, ttfo, e2e, itl, decode, prefill, prompt,
                            out, (flags & 16) != 0, gaps));
                }
                case PARTIAL -> {
                    long start = readVarlong(b);
                    int at = b.position();
                    return new WindowInput.Partial(start, at < data.length && data[at] == WindowAggregateSerde.VERSION
                            ? WindowAggregateSerde.decodeCurrent(data, at + 1) // read in place, not copied
                            : WindowAggregate.fromBytes(Arrays.copyOfRange(data, at, data.length)));
                }
                case NO_ROW -> {
                    return new WindowInput.NoRow();
                }
                case FAILED -> {
                    int flags = b.get();
                    return new WindowInput.Failed((flags & 1) != 0 ? getString(b) : null, (flags & 2) != 0);
                }
                case BEAT -> {
                    int flags = b.get();
                    String target = (flags & 1) != 0 ? getString(b) : null;
                    String model = (flags & 2) != 0 ? getString(b) : null;
                    int n = readVarint(b);
                    Map<String, Double> samples = new HashMap<>();
                    for (int i = 0; i < n; i++) {
                        samples.put(getString(b), b.getDouble());
                    }
                    return new WindowInput.Beat(target, model, samples);
                }
                default -> throw new SerializationException("unknown window input kind " + data[1]);
            }
        } catch (java.nio.BufferUnderflowException | IllegalArgumentException e) {
            throw new SerializationException("truncated or malformed window input, " + data.length + " bytes", e);
        }
    }

    /** Writes {@code v} zig-zag encoded, 7 bits a byte, least significant first (at most 5 bytes). */
    private static void writeVarint(int v, ByteBuffer b) {
        writeVarlong(v, b);
    }

    /** Writes {@code v} zig-zag encoded, 7 bits a byte, least significant first (at most 10 bytes). */
    private static void writeVarlong(long v, ByteBuffer b) {
        long u = (v << 1) ^ (v >> 63);
        while ((u & ~0x7FL) != 0) {
            b.put((byte) ((u & 0x7F) | 0x80));
            u >>>= 7;
        }
        b.put((byte) u);
    }

    private static int readVarint(ByteBuffer b) {
        long v = readVarlong(b);
        if (v != (int) v) {
            throw new IllegalArgumentException("varint out of range: " + v);
        }
        return (int) v;
    }

    private static long readVarlong(ByteBuffer b) {
        long u = 0;
        for (int shift = 0; shift < 70; shift += 7) {
            byte x = b.get();
            u |= (long) (x & 0x7F) << shift;
            if ((x & 0x80) == 0) {
                return (u >>> 1) ^ -(u & 1);
            }
        }
        throw new IllegalArgumentException("varint longer than 10 bytes");
    }

    private static void putBytes(ByteBuffer b, byte[] s) {
        writeVarint(s.length, b);
        b.put(s);
    }

    private static String getString(ByteBuffer b) {
        int n = readVarint(b);
        String s = new String(b.array(), b.arrayOffset() + b.position(), n, StandardCharsets.UTF_8);
        b.position(b.position() + n);
        return s;
    }
}
