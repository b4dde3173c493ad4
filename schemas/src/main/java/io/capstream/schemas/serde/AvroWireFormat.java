package io.capstream.schemas.serde;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import org.apache.avro.Schema;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificRecord;

/**
 * The Confluent wire format: magic byte {@code 0}, a 4-byte big-endian schema id, then the Avro
 * binary encoding of the record.
 */
public final class AvroWireFormat {
    /** The magic byte that starts every record. */
    public static final byte MAGIC = 0;
    /** Bytes before the Avro payload: magic byte + schema id. */
    public static final int HEADER_LENGTH = 5;

    private AvroWireFormat() {
    }

    /**
     * Encodes a record.
     *
     * @param schemaId registry id of the writer schema
     * @param record   the record; never null
     * @return the framed bytes
     */
    public static byte[] encode(int schemaId, SpecificRecord record) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(128);
        out.write(MAGIC);
        out.write((schemaId >>> 24) & 0xff);
        out.write((schemaId >>> 16) & 0xff);
        out.write((schemaId >>> 8) & 0xff);
        out.write(schemaId & 0xff);
        BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(out, null);
        try {
            new SpecificDatumWriter<SpecificRecord>(record.getSchema()).write(record, encoder);
            encoder.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /**
     * Reads the schema id of framed bytes.
     *
     * @param data framed bytes
     * @return the schema id
     * @throws IllegalArgumentException when the bytes are too short or the magic byte is wrong
     */
    public static int schemaId(byte[] data) {
        if (data == null || data.length < HEADER_LENGTH) {
            throw new IllegalArgumentException("not Confluent wire format: "
                    + (data == null ? "null" : data.length + " bytes") + ", need at least " + HEADER_LENGTH);
        }
        if (data[0] != MAGIC) {
            throw new IllegalArgumentException("not Confluent wire format: unknown magic byte " + data[0]);
        }
        return ByteBuffer.wrap(data, 1, 4).getInt();
    }

    /**
     * Decodes framed bytes written with {@code writerSchema} into the reader's specific class.
     *
     * @param data         framed bytes
     * @param writerSchema the schema the bytes were written with (looked up by id)
     * @param readerSchema the schema of the generated class to read into
     * @param <T>          the generated class
     * @return the decoded record
     * @throws IllegalArgumentException when the payload is not valid Avro for the writer schema
     */
    public static <T extends SpecificRecord> T decode(byte[] data, Schema writerSchema, Schema readerSchema) {
        BinaryDecoder decoder = DecoderFactory.get().binaryDecoder(data, HEADER_LENGTH, data.length - HEADER_LENGTH, null);
        SpecificDatumReader<T> reader = new SpecificDatumReader<>(writerSchema, readerSchema, SpecificData.get());
        try {
            return reader.read(null, decoder);
        } catch (IOException | RuntimeException e) {
            throw new IllegalArgumentException("invalid Avro payload for schema " + writerSchema.getFullName() + ": " + e, e);
        }
    }
}
