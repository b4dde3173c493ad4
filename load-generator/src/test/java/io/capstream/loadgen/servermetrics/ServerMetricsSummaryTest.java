package io.capstream.loadgen.servermetrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.capstream.schemas.avro.ServerMetrics;
import io.capstream.schemas.avro.ServerSeries;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class ServerMetricsSummaryTest {
    private static ServerScrape scrape(double tMs, double... values) {
        return new ServerScrape(1_000_000L + (long) tMs, tMs, 1.5, values);
    }

    @Test
    void minNearestRankP50MaxAndLastPerSeriesWithGapsWhereAScrapeLackedIt() {
        List<SeriesInfo> series = List.of(new SeriesInfo("requests_waiting", "vllm:num_requests_waiting", "gauge"),
                new SeriesInfo("late", "late", "gauge"));
        List<ServerScrape> scrapes = List.of(scrape(0, 4), scrape(1000, 1), scrape(2000, 3, 10), scrape(3000, 2),
                scrape(4000, Double.NaN, 20));
        ServerMetrics sm = ServerMetricsSummary.of(new ServerMetricsRecording("http://h/metrics", 1000, series, scrapes,
                2, "GET http://h/metrics answered 503"));
        assertEquals(5, sm.getScrapes());
        assertEquals(2, sm.getFailedScrapes());
        assertEquals("GET http://h/metrics answered 503", sm.getFirstError());
        assertEquals(List.of(0.0, 1000.0, 2000.0, 3000.0, 4000.0), sm.getTMs());
        ServerSeries w = sm.getSeries().get("requests_waiting");
        assertEquals(4, w.getSamples());
        assertEquals(1.0, w.getMin());
        assertEquals(2.0, w.getP50(), "nearest rank: ceil(0.5 x 4) = 2nd of 1,2,3,4");
        assertEquals(4.0, w.getMax());
        assertEquals(2.0, w.getLast(), "the last scrape that had it");
        assertEquals(Arrays.asList(4.0, 1.0, 3.0, 2.0, null), w.getValues());
        assertNull(w.getIncrease(), "a gauge has none");
        ServerSeries late = sm.getSeries().get("late");
        assertEquals(Arrays.asList(null, null, 10.0, null, 20.0), late.getValues(), "values before it appeared are gaps");
        assertEquals(10.0, late.getP50(), "ceil(0.5 x 2) = 1st of 10,20");
    }

    @Test
    void aLongRunKeepsAtMost600PointsIncludingTheLastButSummarisesEveryScrape() {
        List<ServerScrape> scrapes = new ArrayList<>();
        for (int i = 0; i < 3601; i++) {
            scrapes.add(scrape(i * 1000.0, i));
        }
        ServerMetrics sm = ServerMetricsSummary.of(new ServerMetricsRecording("u", 1000,
                List.of(new SeriesInfo("x", "x", "counter")), scrapes, 0, null));
        assertTrue(sm.getTMs().size() <= ServerMetricsSummary.MAX_POINTS + 1, "points: " + sm.getTMs().size());
        assertEquals(3_600_000.0, sm.getTMs().get(sm.getTMs().size() - 1));
        ServerSeries x = sm.getSeries().get("x");
        assertEquals(3601, x.getSamples());
        assertEquals(1800.0, x.getP50(), "ceil(0.5 x 3601) = 1801st of 0..3600");
        assertEquals(3600.0, x.getLast());
        assertEquals(3600.0, x.getIncrease(), "a counter's increase over the run");
        assertEquals(sm.getTMs().size(), x.getValues().size());
    }

    @Test
    void noScrapeGivesNoSeries() {
        ServerMetrics sm = ServerMetricsSummary.of(new ServerMetricsRecording("u", 1000,
                List.of(new SeriesInfo("x", "x", "gauge")), List.of(), 3, "refused"));
        assertEquals(0, sm.getScrapes());
        assertThat(sm.getSeries()).isEmpty();
        assertNull(sm.getSeries().get("x"));
    }
}
