package io.capstream.schemas.serde;

import static org.assertj.core.api.Assertions.assertThat;

import io.capstream.schemas.avro.BenchmarkReport;
import io.capstream.schemas.avro.ReportChunk;
import io.capstream.schemas.avro.RunEvent;
import io.capstream.schemas.avro.ServerMetricsScrape;
import io.capstream.schemas.avro.ServerWindowState;
import io.capstream.schemas.avro.SloBreach;
import io.capstream.schemas.avro.SweepCurve;
import io.capstream.schemas.avro.WindowSummary;
import io.capstream.schemas.avro.WorkerShare;
import java.util.List;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.Test;

/** {@link AvroBinarySerde} round-trips every generated record, with the plain and the custom-coder model. */
class AvroBinarySerdeTest {
    private static <T extends SpecificRecord> AvroBinarySerde<T> serde(Class<T> type, boolean customCoders) {
        SpecificData model = customCoders ? CustomCoderModels.forClass(type) : SpecificData.getForClass(type);
        return new AvroBinarySerde<>(SpecificData.get().getSchema(type), model) {
        };
    }

    private static <T extends SpecificRecord> void roundTrips(Class<T> type) {
        for (boolean custom : new boolean[] {false, true}) {
            AvroBinarySerde<T> serde = serde(type, custom);
            for (T record : RandomRecords.of(type, 20, 31)) {
                byte[] bytes = serde.serializer().serialize("t", record);
                assertThat(serde.deserializer().deserialize("t", bytes))
                        .as("%s through %s coders", type.getSimpleName(), custom ? "custom" : "generic")
                        .isEqualTo(record);
            }
            assertThat(serde.serializer().serialize("t", null)).as("null").isNull();
            assertThat(serde.deserializer().deserialize("t", null)).as("null").isNull();
        }
    }

    @Test
    void everyGeneratedRecordRoundTrips() {
        for (Class<? extends SpecificRecord> type : List.of(RunEvent.class, BenchmarkReport.class,
                io.capstream.schemas.avro.ChangePoint.class, ReportChunk.class,
                ServerMetricsScrape.class, ServerWindowState.class, SloBreach.class, SweepCurve.class,
                WindowSummary.class, WorkerShare.class)) {
            roundTrips(type);
        }
    }
}
