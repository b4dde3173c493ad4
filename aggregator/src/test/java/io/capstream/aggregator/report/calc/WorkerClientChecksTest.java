package io.capstream.aggregator.report.calc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.capstream.schemas.avro.ClientCheck;
import io.capstream.schemas.avro.RunFinished;
import java.util.List;
import java.util.Map;
import org.apache.avro.specific.SpecificData;
import org.junit.jupiter.api.Test;

/** A distributed run's report says the client may have distorted the numbers when any worker says so. */
class WorkerClientChecksTest {
    private static RunFinished finished(boolean distorted, List<String> warnings) {
        // every field at its schema default or zero, then the two this is about
        ClientCheck c = (ClientCheck) SpecificData.get().newRecord(null, ClientCheck.getClassSchema());
        for (org.apache.avro.Schema.Field f : ClientCheck.getClassSchema().getFields()) {
            c.put(f.pos(), f.hasDefaultValue() ? SpecificData.get().getDefaultValue(f) : zero(f.schema()));
        }
        c.setDistorted(distorted);
        c.setWarnings(warnings);
        RunFinished r = (RunFinished) SpecificData.get().newRecord(null, RunFinished.getClassSchema());
        for (org.apache.avro.Schema.Field f : RunFinished.getClassSchema().getFields()) {
            r.put(f.pos(), f.hasDefaultValue() ? SpecificData.get().getDefaultValue(f) : zero(f.schema()));
        }
        r.setClientCheck(c);
        return r;
    }

    private static Object zero(org.apache.avro.Schema s) {
        return switch (s.getType()) {
            case INT -> 0;
            case LONG -> 0L;
            case DOUBLE -> 0.0;
            case FLOAT -> 0f;
            case BOOLEAN -> false;
            case STRING -> "";
            case ARRAY -> List.of();
            case MAP -> Map.of();
            default -> null;
        };
    }

    @Test
    void aDistortedWorkerThatDidNotFinishLastStillMarksTheRun() {
        RunFinished w1 = finished(true, List.of("event-loop delay p99 185.1 ms > 5 ms"));
        RunFinished w2 = finished(false, List.of());
        RunFinished merged = WorkerClientChecks.withEveryWorkersWarnings(w2, Map.of("w1", w1, "w2", w2));
        assertTrue(merged.getClientCheck().getDistorted(), merged.getClientCheck().toString());
        assertEquals(List.of("w1: event-loop delay p99 185.1 ms > 5 ms"), merged.getClientCheck().getWarnings());
        assertEquals(false, w2.getClientCheck().getDistorted(), "the input is not changed");
    }

    @Test
    void oneWorkerOrNoClientCheckIsUnchanged() {
        RunFinished only = finished(false, List.of("x"));
        assertSame(only, WorkerClientChecks.withEveryWorkersWarnings(only, Map.of("w1", only)));
        assertEquals(null, WorkerClientChecks.withEveryWorkersWarnings(null, Map.of()));
    }
}
