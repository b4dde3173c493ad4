package io.capstream.loadgen.stop;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SaturationDetectorTest {
    private static final long MS = 1_000_000L;

    /** An open loop at 10 req/s whose request i was due at 100 i ms, waited {@code queueMs} and had TTFT {@code ttftMs}. */
    private static EndedRequest at(int i, double queueMs, double ttftMs) {
        long due = i * 100 * MS;
        long start = due + (long) (queueMs * MS);
        return new EndedRequest(due, start, start + (long) ((ttftMs + 500) * MS), false, false, (long) (ttftMs * MS),
                null);
    }

    @Test
    void steadyRunNeverTrips() {
        SaturationDetector d = new SaturationDetector();
        for (int i = 0; i < 1000; i++) {
            // noisy but flat: TTFT 80..120 ms, a few ms of queue
            assertThat(d.ended(at(i, i % 3, 80 + (i * 37) % 41))).as("request %d", i).isNull();
        }
    }

    @Test
    void queueGrowingFasterThanTheScheduleTrips() {
        SaturationDetector d = new SaturationDetector();
        String why = null;
        int i = 0;
        // achieved start rate 2/3 of offered: each due request waits 50 ms more than the one before (slope 0.5)
        for (; i < 400 && why == null; i++) {
            why = d.ended(at(i, i * 50.0, 100));
        }
        assertThat(why).as("the queue grows 0.5 s per s").isNotNull();
        assertThat(why).contains("client's queue time grew by 500 ms per second").contains("67% of the offered rate");
        // it trips once the window is full and the newest request waited 0.5 s: request 49 waited 2.45 s
        assertThat(i).as("requests until it tripped").isEqualTo(SaturationDetector.WINDOW);
    }

    @Test
    void queueGrowingSlowerThanTheLimitOrShortDoesNotTrip() {
        SaturationDetector d = new SaturationDetector();
        for (int i = 0; i < 300; i++) {
            // 20 ms more per 100 ms = slope 0.2 < 0.25: behind, but within the tolerance
            assertThat(d.ended(at(i, i * 20.0, 100))).as("slope 0.2, request %d", i).isNull();
        }
        // 1,000 req/s, each waiting 0.5 ms more than the one before (slope 0.5): behind, but the queue is short until
        // the newest request waited 0.5 s
        SaturationDetector fast = new SaturationDetector();
        String why = null;
        int i = 0;
        for (; i < 2000 && why == null; i++) {
            long due = i * MS;
            why = fast.ended(new EndedRequest(due, due + i * MS / 2, due + i * MS / 2 + 10 * MS, false, false, MS, null));
        }
        assertThat(i - 1).as("the first request that waited 0.5 s").isEqualTo(1000);
    }

    @Test
    void risingTtftTripsOnlyAboveTwiceTheBaseline() {
        SaturationDetector d = new SaturationDetector();
        String why = null;
        int i = 0;
        for (; i < 50; i++) {
            assertThat(d.ended(at(i, 0, 100))).as("baseline request %d", i).isNull();
        }
        // then TTFT grows by 40 ms per request sent 100 ms apart: 0.4 s per s
        for (; i < 1000 && why == null; i++) {
            why = d.ended(at(i, 0, 100 + (i - 49) * 40.0));
        }
        assertThat(why).as("TTFT grows 400 ms per s").isNotNull();
        assertThat(why).startsWith("TTFT rose by ").contains("the first 50 requests' 0.100 s")
                .endsWith("the endpoint's queue grows");
        // the window's median passes 2x the 100 ms baseline (200 ms) when its middle request is past TTFT 200 ms
        assertThat(i).as("requests until it tripped").isBetween(75, 105);
    }

    @Test
    void flatHighTtftDoesNotTrip() {
        SaturationDetector d = new SaturationDetector();
        for (int i = 0; i < 50; i++) {
            d.ended(at(i, 0, 100));
        }
        for (int i = 50; i < 500; i++) {
            // a jump to 5x then flat: slow, but not getting slower
            assertThat(d.ended(at(i, 0, 500))).as("request %d", i).isNull();
        }
    }

    @Test
    void failedAndCancelledRequestsDoNotFeedTheTtftSignal() {
        SaturationDetector d = new SaturationDetector();
        for (int i = 0; i < 500; i++) {
            EndedRequest r = at(i, 0, 100 + i * 40.0);
            EndedRequest failed = new EndedRequest(r.scheduledNs(), r.startNs(), r.endNs(), true, false, r.ttftNs(), "E");
            EndedRequest cancelled = new EndedRequest(r.scheduledNs(), r.startNs(), r.endNs(), false, true, r.ttftNs(),
                    null);
            assertThat(d.ended(i % 2 == 0 ? failed : cancelled)).as("request %d", i).isNull();
        }
    }

    @Test
    void serverWaitingRequestsGrowingOverFiveScrapesTrips() {
        SaturationDetector d = new SaturationDetector();
        assertThat(d.serverWaiting(0)).isNull();
        assertThat(d.serverWaiting(3)).isNull();
        assertThat(d.serverWaiting(2)).as("fell").isNull();
        assertThat(d.serverWaiting(6)).isNull();
        assertThat(d.serverWaiting(9)).isNull();
        assertThat(d.serverWaiting(11)).as("3, 2, 6, 9, 11: fell once in the window").isNull();
        assertThat(d.serverWaiting(11.5)).as("2, 6, 9, 11, 11.5: +9.5, below 10").isNull();
        String why = d.serverWaiting(16);
        assertThat(why).as("6, 9, 11, 11.5, 16: +10 without falling").isEqualTo(
                "the endpoint's waiting requests grew from 6 to 16 over its last 5 scrapes without falling (limit: 10"
                        + " more)");
        assertThat(d.serverWaiting(Double.NaN)).isNull();
    }

    @Test
    void slopeAndMedian() {
        SaturationDetector.Series s = new SaturationDetector.Series(3);
        s.add(0, 5);
        s.add(10, 5);
        s.add(20, 5);
        assertThat(s.slope()).isEqualTo(0.0);
        s.add(30, 35);
        assertThat(s.slope()).as("(10,5) (20,5) (30,35)").isEqualTo(1.5);
        assertThat(s.yAtLargestX()).isEqualTo(35);
        SaturationDetector.Series flat = new SaturationDetector.Series(2);
        flat.add(7, 1);
        flat.add(7, 9);
        assertThat(flat.slope()).as("every x the same").isNaN();
        assertThat(SaturationDetector.median(new long[] {3, 1, 2})).isEqualTo(2.0);
        assertThat(SaturationDetector.median(new long[] {4, 1, 2, 3})).isEqualTo(2.5);
    }
}
