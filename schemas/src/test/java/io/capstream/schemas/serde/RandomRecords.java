package io.capstream.schemas.serde;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificRecord;
import org.apache.avro.util.RandomData;

/**
 * Random but schema-valid instances of generated Avro classes, for tests (shared through the
 * schemas test-jar): Avro's {@link RandomData} makes generic records, which are re-read as the
 * specific class. Deterministic for a given seed.
 */
public final class RandomRecords {
    private RandomRecords() {
    }

    /**
     * @param type  generated class
     * @param count how many
     * @param seed  random seed
     * @param <T>   generated class
     * @return {@code count} records
     */
    public static <T extends SpecificRecord> List<T> of(Class<T> type, int count, long seed) {
        Schema schema = SpecificData.get().getSchema(type);
        List<T> out = new ArrayList<>();
        for (Object generic : new RandomData(schema, count, seed)) {
            try {
                ByteArrayOutputStream bytes = new ByteArrayOutputStream();
                BinaryEncoder enc = EncoderFactory.get().binaryEncoder(bytes, null);
                new GenericDatumWriter<Object>(schema).write(generic, enc);
                enc.flush();
                out.add(new SpecificDatumReader<T>(schema).read(null, DecoderFactory.get().binaryDecoder(bytes.toByteArray(), null)));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return out;
    }

    /**
     * @param type generated class
     * @param seed random seed
     * @param <T>  generated class
     * @return one record
     */
    public static <T extends SpecificRecord> T one(Class<T> type, long seed) {
        return of(type, 1, seed).get(0);
    }
}
