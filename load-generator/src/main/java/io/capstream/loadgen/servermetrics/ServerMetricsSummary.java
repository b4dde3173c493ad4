package io.capstream.loadgen.servermetrics;

import io.capstream.schemas.avro.ServerMetrics;
import io.capstream.schemas.avro.ServerSeries;
import io.capstream.schemas.stats.NearestRank;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns a {@link ServerMetricsRecording} into RunFinished's {@link ServerMetrics}: per series min, nearest-rank
 * p50 (spec §8.1: the value at rank ceil(0.5 n) of the n sorted values), max and last over every scrape that
 * had it, for counters their increase (last minus first: what the endpoint counted during the run), and a timeline of at most {@link #MAX_POINTS} scrapes (every k-th and the last) for the report's
 * chart. Stateless.
 */
public final class ServerMetricsSummary {
    /** Most scrapes kept in the timeline. */
    public static final int MAX_POINTS = 600;

    private ServerMetricsSummary() {
    }

    /**
     * @param r a recording; not null
     * @return its summary; series that no scrape had are left out
     */
    public static ServerMetrics of(ServerMetricsRecording r) {
        List<ServerScrape> scrapes = r.scrapes();
        int n = scrapes.size();
        int k = Math.max(1, (n + MAX_POINTS - 1) / MAX_POINTS);
        List<Integer> kept = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            if (i % k == 0 || i == n - 1) {
                kept.add(i);
            }
        }
        List<Double> times = new ArrayList<>(kept.size());
        kept.forEach(i -> times.add(scrapes.get(i).tMs()));
        Map<String, ServerSeries> series = new LinkedHashMap<>();
        for (int s = 0; s < r.series().size(); s++) {
            double[] all = new double[n];
            int m = 0;
            double last = Double.NaN;
            double first = Double.NaN;
            for (ServerScrape sc : scrapes) {
                double v = sc.value(s);
                if (!Double.isNaN(v)) {
                    if (m == 0) {
                        first = v;
                    }
                    all[m++] = v;
                    last = v;
                }
            }
            if (m == 0) {
                continue;
            }
            double[] sorted = Arrays.copyOf(all, m);
            Arrays.sort(sorted);
            List<Double> values = new ArrayList<>(kept.size());
            for (int i : kept) {
                double v = scrapes.get(i).value(s);
                values.add(Double.isNaN(v) ? null : v);
            }
            SeriesInfo info = r.series().get(s);
            series.put(info.name(), ServerSeries.newBuilder()
                    .setSource(info.source()).setKind(info.kind()).setSamples(m)
                    .setMin(sorted[0]).setP50(NearestRank.ofSorted(sorted, 50)).setMax(sorted[m - 1]).setLast(last)
                    .setIncrease("counter".equals(info.kind()) ? last - first : null)
                    .setValues(values).build());
        }
        return ServerMetrics.newBuilder()
                .setUrl(r.url()).setScrapes(n).setFailedScrapes(r.failed()).setIntervalMs(r.intervalMs())
                .setFirstError(r.firstError()).setTMs(times).setSeries(series).build();
    }
}
