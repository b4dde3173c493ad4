package io.capstream.aggregator.report.state;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.capstream.schemas.avro.RunEvent;
import io.capstream.schemas.serde.RandomRecords;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.Test;

class RunEventBinarySerdeTest {
    private final RunEventBinarySerde serde = new RunEventBinarySerde();

    @Test
    void eventsOfEveryPayloadTypeRoundTrip() {
        Set<String> payloadTypes = new TreeSet<>();
        for (RunEvent e : RandomRecords.of(RunEvent.class, 80, 42)) {
            assertEquals(e, serde.deserializer().deserialize("t", serde.serializer().serialize("t", e)));
            payloadTypes.add(((SpecificRecord) e.getPayload()).getSchema().getName());
        }
        assertEquals(new TreeSet<>(RunEvent.getClassSchema().getField("payload").schema().getTypes().stream()
                .map(Schema::getName).toList()), payloadTypes, "every payload branch was exercised");
    }

    @Test
    void returnedBytesAreNotOverwrittenByTheNextEvent() {
        List<RunEvent> events = RandomRecords.of(RunEvent.class, 2, 3);
        byte[] first = serde.serializer().serialize("t", events.get(0));
        byte[] copy = first.clone();
        serde.serializer().serialize("t", events.get(1));
        assertArrayEquals(copy, first);
        assertEquals(events.get(0), serde.deserializer().deserialize("t", first));
    }

    @Test
    void threadsShareOneSerde() throws Exception {
        List<RunEvent> events = RandomRecords.of(RunEvent.class, 200, 11);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<Integer>> results = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                results.add(pool.submit(() -> {
                    int ok = 0;
                    for (RunEvent e : events) {
                        if (e.equals(serde.deserializer().deserialize("t", serde.serializer().serialize("t", e)))) {
                            ok++;
                        }
                    }
                    return ok;
                }));
            }
            for (Future<Integer> r : results) {
                assertEquals(events.size(), r.get(30, TimeUnit.SECONDS));
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void nullIsNullBothWaysAndTruncatedBytesFail() {
        assertNull(serde.serializer().serialize("t", null));
        assertNull(serde.deserializer().deserialize("t", null));
        byte[] bytes = serde.serializer().serialize("t", RandomRecords.one(RunEvent.class, 5));
        assertThrows(UncheckedIOException.class,
                () -> serde.deserializer().deserialize("t", Arrays.copyOf(bytes, bytes.length / 2)));
    }
}
