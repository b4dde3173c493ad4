package io.capstream.aggregator.report.calc;

import static io.capstream.aggregator.report.calc.Fixtures.failed;
import static io.capstream.aggregator.report.calc.Fixtures.finished;
import static io.capstream.aggregator.report.calc.Fixtures.ok;
import static io.capstream.aggregator.report.calc.Fixtures.started;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.capstream.schemas.avro.LoadHealth;
import io.capstream.schemas.avro.RequestCompleted;
import io.capstream.schemas.avro.RequestFailed;
import io.capstream.schemas.avro.RunStarted;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class LoadHealthCalculatorTest {
    private static final long MS = 1_000_000L;

    private static RunStarted open(String arrival, double rate, Integer maxInFlight) {
        return started(11, 4096).setArrival(arrival).setRateRps(rate).setMaxInFlight(maxInFlight).build();
    }

    /** A completed request scheduled and started at the given ms, E2E 1000 ms. */
    private static RequestCompleted request(int index, long scheduledMs, long startMs) {
        return ok(index, 100, 1000, 1000, 10).setScheduledStartNs(scheduledMs * MS).setStartNs(startMs * MS)
                .setClientQueueNs((startMs - scheduledMs) * MS).build();
    }

    /**
     * The example: a Poisson run scheduled at 20 req/s (11 arrivals 50 ms apart) whose client
     * could start only one request every 600 ms (max in flight 1): achieved 1.7 req/s, queues up to
     * 5.5 s. Its latencies look fine, so the report must say that it fell behind.
     */
    @Test
    void aPoissonRunThatCouldNotKeepUpIsBehindSchedule() {
        List<RequestCompleted> requests = new ArrayList<>();
        for (int k = 0; k < 11; k++) {
            requests.add(request(k, 50L * k, 600L * k));
        }
        LoadHealth h = LoadHealthCalculator.compute(open("poisson", 20.0, 1), requests, List.of(), finished(7_000 * MS));
        assertEquals("poisson", h.getArrival());
        assertEquals(20.0, h.getOfferedRateRps());
        assertEquals(20.0, h.getScheduledRateRps(), "10 gaps over 0.5 s");
        assertEquals(10 / 6.0, h.getAchievedRateRps(), "10 gaps over 6 s");
        assertTrue(h.getBehindSchedule());
        // queues k x 550 ms: p50 = sorted[ceil(5.5) - 1] = 2750, p99 = sorted[10]
        assertEquals(2750.0, h.getQueueP50Ms());
        assertEquals(5500.0, h.getQueueP99Ms());
        assertEquals(5500.0, h.getQueueMaxMs());
        assertEquals(1, h.getOfferedConcurrency(), "open loop: the max-in-flight cap");
        assertEquals(11e9 / 7e9, h.getAchievedConcurrency(), "11 x 1 s of E2E over a 7 s wall clock");
    }

    @Test
    void aHealthyOpenLoopIsNotBehind() {
        List<RequestCompleted> requests = new ArrayList<>();
        for (int k = 0; k < 11; k++) {
            requests.add(request(k, 50L * k, 50L * k + 1));
        }
        LoadHealth h = LoadHealthCalculator.compute(open("constant", 20.0, null), requests, List.of(),
                finished(2_000 * MS));
        assertEquals("constant", h.getArrival());
        assertEquals(20.0, h.getScheduledRateRps());
        assertEquals(20.0, h.getAchievedRateRps());
        assertFalse(h.getBehindSchedule(), "1 ms queues, on rate");
        assertEquals(1.0, h.getQueueP50Ms());
        assertEquals(1.0, h.getQueueMaxMs());
        assertNull(h.getOfferedConcurrency(), "no max-in-flight cap");
        assertEquals(5.5, h.getAchievedConcurrency());
    }

    @Test
    void oneLongClientQueueIsBehindScheduleEvenOnRate() {
        List<RequestCompleted> requests = new ArrayList<>();
        for (int k = 0; k < 11; k++) {
            requests.add(request(k, 50L * k, k == 5 ? 280 : 50L * k));
        }
        LoadHealth h = LoadHealthCalculator.compute(open("constant", 20.0, 4), requests, List.of(), finished(2_000 * MS));
        assertEquals(20.0, h.getAchievedRateRps(), "first and last start on time");
        assertEquals(30.0, h.getQueueMaxMs());
        assertTrue(h.getBehindSchedule(), "30 ms > 5% of the 500 ms scheduled span");
        List<RequestCompleted> within = new ArrayList<>(requests);
        within.set(5, request(5, 250, 274));
        assertFalse(LoadHealthCalculator.compute(open("constant", 20.0, 4), within, List.of(), finished(2_000 * MS))
                .getBehindSchedule(), "24 ms is within 5% of 500 ms");
    }

    @Test
    void closedLoopReportsConcurrencyAndIsNeverBehind() {
        RunStarted st = started(4, 4096).setConcurrency(2).build();
        List<RequestCompleted> ok = List.of(request(0, 0, 0), request(1, 0, 0),
                // a closed loop's client queue is not a schedule to keep
                request(2, 0, 1000));
        List<RequestFailed> failed = List.of(failed(3, "boom").setScheduledStartNs(1000 * MS).setStartNs(1000 * MS)
                .setElapsedNs(500 * MS).build());
        LoadHealth h = LoadHealthCalculator.compute(st, ok, failed, finished(2_000 * MS));
        assertEquals("closed", h.getArrival());
        assertNull(h.getOfferedRateRps());
        assertNull(h.getScheduledRateRps());
        assertEquals(3.0, h.getAchievedRateRps(), "3 gaps over 1 s of starts");
        assertFalse(h.getBehindSchedule());
        assertEquals(0.0, h.getQueueP50Ms());
        assertEquals(1000.0, h.getQueueP99Ms());
        assertEquals(1000.0, h.getQueueMaxMs());
        assertEquals(2, h.getOfferedConcurrency());
        assertEquals(1.75, h.getAchievedConcurrency(), "(3 x 1 s E2E + 0.5 s failure) / 2 s");
    }

    @Test
    void fewRequestsNoWallClockImportsAndEmptyRuns() {
        LoadHealth one = LoadHealthCalculator.compute(open("poisson", 5.0, null), List.of(request(0, 0, 3)), List.of(),
                null);
        assertNull(one.getScheduledRateRps(), "fewer than 2 requests");
        assertNull(one.getAchievedRateRps());
        assertFalse(one.getBehindSchedule());
        assertEquals(3.0, one.getQueueP50Ms());
        assertNull(one.getAchievedConcurrency(), "no wall clock");
        io.capstream.schemas.avro.RunFinished nanWall = finished(1_000 * MS);
        nanWall.setWallClockS(Double.NaN);
        assertNull(LoadHealthCalculator.compute(open("poisson", 5.0, null), List.of(request(0, 0, 3)), List.of(), nanWall)
                .getAchievedConcurrency(), "a NaN wall clock is no wall clock");
        LoadHealth sameStart = LoadHealthCalculator.compute(open("poisson", 5.0, null),
                List.of(request(0, 0, 0), request(1, 0, 0)), List.of(), finished(1_000 * MS));
        assertNull(sameStart.getScheduledRateRps(), "zero span");
        assertNull(sameStart.getAchievedRateRps());

        RunStarted imported = started(1, 4096).setOrigin("import").build();
        assertNull(LoadHealthCalculator.compute(imported, List.of(request(0, 0, 0)), List.of(), finished(1_000 * MS)));
        assertNull(LoadHealthCalculator.compute(open("poisson", 5.0, null), List.of(), List.of(), finished(1_000 * MS)));
        LoadHealth noStart = LoadHealthCalculator.compute(null, List.of(request(0, 0, 0)), List.of(), null);
        assertEquals("closed", noStart.getArrival());
        assertNull(noStart.getOfferedConcurrency());
    }
}
