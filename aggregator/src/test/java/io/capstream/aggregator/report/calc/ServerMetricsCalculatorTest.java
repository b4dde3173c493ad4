package io.capstream.aggregator.report.calc;

import static org.assertj.core.api.Assertions.assertThat;

import io.capstream.schemas.avro.ServerMetrics;
import io.capstream.schemas.avro.ServerScraping;
import io.capstream.schemas.avro.ServerSeries;
import io.capstream.schemas.avro.ServerSeriesInfo;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ServerMetricsCalculatorTest {
    private static final long START = 1_785_585_600_000L;

    /** A scrape at tMs whose series i has values[i] (NaN: the scrape lacked it). */
    private static ScrapeSample scrape(List<String> names, double tMs, double... values) {
        Map<String, Double> samples = new LinkedHashMap<>();
        for (int i = 0; i < values.length; i++) {
            if (!Double.isNaN(values[i])) {
                samples.put(names.get(i), values[i]);
            }
        }
        return new ScrapeSample("w0", START + (long) tMs, tMs, samples);
    }

    private static ServerScraping scraping(String url, int failed, String firstError, ServerSeriesInfo... series) {
        return ServerScraping.newBuilder().setUrl(url).setIntervalMs(1000).setFailedScrapes(failed)
                .setFirstError(firstError).setSeries(List.of(series)).build();
    }

    @Test
    void minNearestRankP50MaxAndLastPerSeriesWithGapsWhereAScrapeLackedIt() {
        List<String> names = List.of("requests_waiting", "late");
        List<ScrapeSample> scrapes = List.of(scrape(names, 0, 4), scrape(names, 1000, 1), scrape(names, 2000, 3, 10),
                scrape(names, 3000, 2), scrape(names, 4000, Double.NaN, 20));
        ServerMetrics sm = ServerMetricsCalculator.compute(scraping("http://h/metrics", 2,
                "GET http://h/metrics answered 503",
                new ServerSeriesInfo("requests_waiting", "vllm:num_requests_waiting", "gauge"),
                new ServerSeriesInfo("late", "late", "gauge")), scrapes, START);
        assertThat(sm.getScrapes()).as("scrapes").isEqualTo(5);
        assertThat(sm.getFailedScrapes()).as("failed scrapes").isEqualTo(2);
        assertThat(sm.getFirstError()).isEqualTo("GET http://h/metrics answered 503");
        assertThat(sm.getUrl()).isEqualTo("http://h/metrics");
        assertThat(sm.getIntervalMs()).isEqualTo(1000);
        assertThat(sm.getTMs()).as("t_ms").containsExactly(0.0, 1000.0, 2000.0, 3000.0, 4000.0);
        ServerSeries w = sm.getSeries().get("requests_waiting");
        assertThat(w.getSource()).isEqualTo("vllm:num_requests_waiting");
        assertThat(w.getSamples()).isEqualTo(4);
        assertThat(w.getMin()).isEqualTo(1.0);
        assertThat(w.getP50()).as("nearest rank: ceil(0.5 x 4) = 2nd of 1,2,3,4").isEqualTo(2.0);
        assertThat(w.getMax()).isEqualTo(4.0);
        assertThat(w.getLast()).as("the last scrape that had it").isEqualTo(2.0);
        assertThat(w.getValues()).isEqualTo(Arrays.asList(4.0, 1.0, 3.0, 2.0, null));
        assertThat(w.getIncrease()).as("a gauge has none").isNull();
        ServerSeries late = sm.getSeries().get("late");
        assertThat(late.getValues()).as("values before it appeared are gaps")
                .isEqualTo(Arrays.asList(null, null, 10.0, null, 20.0));
        assertThat(late.getP50()).as("ceil(0.5 x 2) = 1st of 10,20").isEqualTo(10.0);
    }

    @Test
    void aLongRunKeepsAtMost600PointsIncludingTheLastButSummarisesEveryScrape() {
        List<ScrapeSample> scrapes = new ArrayList<>();
        for (int i = 0; i < 3601; i++) {
            scrapes.add(scrape(List.of("x"), i * 1000.0, i));
        }
        ServerMetrics sm = ServerMetricsCalculator.compute(scraping("u", 0, null,
                new ServerSeriesInfo("x", "x", "counter")), scrapes, START);
        assertThat(sm.getTMs()).as("points").hasSizeLessThanOrEqualTo(ServerMetricsCalculator.MAX_POINTS + 1);
        assertThat(sm.getTMs().get(sm.getTMs().size() - 1)).as("the last scrape is kept").isEqualTo(3_600_000.0);
        ServerSeries x = sm.getSeries().get("x");
        assertThat(x.getSamples()).isEqualTo(3601);
        assertThat(x.getP50()).as("ceil(0.5 x 3601) = 1801st of 0..3600").isEqualTo(1800.0);
        assertThat(x.getLast()).isEqualTo(3600.0);
        assertThat(x.getIncrease()).as("a counter's increase over the run").isEqualTo(3600.0);
        assertThat(x.getValues()).hasSameSizeAs(sm.getTMs());
    }

    @Test
    void onlyTheTablesSeriesInItsOrderAndNoScrapeGivesNoSeries() {
        List<String> names = List.of("b", "a", "beyond");
        ServerMetrics sm = ServerMetricsCalculator.compute(scraping("u", 0, null,
                new ServerSeriesInfo("b", "b", "gauge"), new ServerSeriesInfo("a", "a", "gauge")),
                List.of(scrape(names, -5.5, 1, 2, 3)), START);
        assertThat(sm.getSeries().keySet()).as("the table's series, in its order; others left out")
                .containsExactly("b", "a");
        assertThat(sm.getTMs()).as("the baseline before T0").containsExactly(-5.5);
        ServerMetrics none = ServerMetricsCalculator.compute(scraping("u", 3, "refused",
                new ServerSeriesInfo("x", "x", "gauge")), List.of(), START);
        assertThat(none.getScrapes()).isZero();
        assertThat(none.getFailedScrapes()).isEqualTo(3);
        assertThat(none.getSeries()).as("no scrape had a series").isEmpty();
    }

    @Test
    void aScrapeWithoutItsTimeIsPlacedByItsWallClock() {
        ServerMetrics sm = ServerMetricsCalculator.compute(scraping("u", 0, null,
                new ServerSeriesInfo("x", "x", "gauge")),
                List.of(new ScrapeSample("w0", START + 1500, null, Map.of("x", 1.0))), START);
        assertThat(sm.getTMs()).as("emitted_at - started_at").containsExactly(1500.0);
    }
}
