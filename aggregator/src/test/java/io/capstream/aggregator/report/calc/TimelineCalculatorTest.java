package io.capstream.aggregator.report.calc;

import static io.capstream.aggregator.report.calc.Fixtures.failed;
import static io.capstream.aggregator.report.calc.Fixtures.ok;
import static io.capstream.aggregator.report.calc.Fixtures.started;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.capstream.schemas.avro.RequestCompleted;
import io.capstream.schemas.avro.RequestFailed;
import io.capstream.schemas.avro.RequestTimeline;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class TimelineCalculatorTest {
    private static final long MS = 1_000_000L;

    /** Completed request 0 (start 10 ms, TTFT 250 ms, E2E 1250 ms), failed 1 and completed 2, given out of order. */
    @Test
    void completedAndFailedRequestsInRequestIndexOrder() {
        RequestCompleted first = ok(0, 250, 1250, 1000, 11).setStartNs(10 * MS).setClientQueueNs(2 * MS).build();
        RequestCompleted third = ok(2, 100, 400, 1000, 11).setStartNs(1_500_000_123L).setClientQueueNs(0).build();
        RequestFailed second = failed(1, "HTTP Error 500").setErrorType("HTTPError").setStartNs(700 * MS)
                .setClientQueueNs(300 * MS).setElapsedNs(45 * MS).build();
        RequestTimeline t = TimelineCalculator.compute(started(3, 4096).build(), List.of(third, first), List.of(second));

        assertEquals(List.of(0, 1, 2), t.getRequestIndex());
        assertEquals(List.of(10.0, 700.0, 1500.000123), t.getStartMs(), "start_ns / 1e6");
        assertEquals(List.of(2.0, 300.0, 0.0), t.getQueueMs(), "client_queue_ns / 1e6");
        assertEquals(Arrays.asList(260.0, null, 1600.000123), t.getFirstTokenMs(), "start + TTFT; null for the failure");
        assertEquals(List.of(1260.0, 745.0, 1900.000123), t.getEndMs(), "start + E2E; the failure: start + elapsed");
        assertEquals(Arrays.asList(null, "HTTPError", null), t.getErrorType());
    }

    @Test
    void aFailureWithoutElapsedTimeEndsAtItsStart() {
        RequestTimeline t = TimelineCalculator.compute(null, List.of(),
                List.of(failed(4, null).setStartNs(2500 * MS).build()));
        assertEquals(List.of(4), t.getRequestIndex());
        assertEquals(List.of(2500.0), t.getEndMs());
        assertEquals(Arrays.asList((Double) null), t.getFirstTokenMs());
        assertEquals(List.of("ValueError"), t.getErrorType());
    }

    @Test
    void importsAndRunsWithoutRequestsHaveNoTimeline() {
        List<RequestCompleted> one = List.of(ok(0, 250, 1250, 1000, 11).build());
        assertNull(TimelineCalculator.compute(started(1, 4096).setOrigin("import").build(), one, List.of()));
        assertNull(TimelineCalculator.compute(started(1, 4096).build(), List.of(), List.of()));
        assertEquals(List.of(0), TimelineCalculator.compute(started(1, 4096).setOrigin("replay:run-1").build(), one,
                List.of()).getRequestIndex(), "replays keep the original's start times");
    }
}
