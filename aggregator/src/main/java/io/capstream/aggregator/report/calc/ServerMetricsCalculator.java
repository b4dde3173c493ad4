package io.capstream.aggregator.report.calc;

import io.capstream.schemas.avro.RunFinished;
import io.capstream.schemas.avro.RunStarted;
import io.capstream.schemas.avro.ServerMetrics;
import io.capstream.schemas.avro.ServerScraping;
import io.capstream.schemas.avro.ServerSeries;
import io.capstream.schemas.avro.ServerSeriesInfo;
import io.capstream.schemas.stats.NearestRank;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The report's {@link ServerMetrics} from the run's scrapes (Heartbeats with {@code server_samples}) and the
 * scraping worker's {@link ServerScraping}: per series of its table, min, nearest-rank p50 ({@link NearestRank},
 * spec §8.1), max and last over every scrape that had it, for counters their increase (last minus first: what
 * the endpoint counted during the run), and a timeline of at most {@link #MAX_POINTS} scrapes (every k-th and
 * the last) for the report's chart. Stateless.
 */
public final class ServerMetricsCalculator {
    /** Most scrapes kept in the timeline. */
    public static final int MAX_POINTS = 600;

    private ServerMetricsCalculator() {
    }

    /**
     * @param scraping how the worker scraped (URL, period, failures, series table); not null
     * @param scrapes  the worker's successful scrapes in the order they were taken; not null. A scrape without
     *                 {@code tMs} (never from a generator that sends {@code scraping}) is placed at
     *                 {@code epochMs - startedAtEpochMs}
     * @param startedAtEpochMs the run's start, epoch ms (only for scrapes without {@code tMs})
     * @return the summary; series that no scrape had are left out
     */
    public static ServerMetrics compute(ServerScraping scraping, List<ScrapeSample> scrapes, long startedAtEpochMs) {
        int n = scrapes.size();
        int k = Math.max(1, (n + MAX_POINTS - 1) / MAX_POINTS);
        List<Integer> kept = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            if (i % k == 0 || i == n - 1) {
                kept.add(i);
            }
        }
        List<Double> times = new ArrayList<>(kept.size());
        kept.forEach(i -> times.add(tMs(scrapes.get(i), startedAtEpochMs)));
        Map<String, ServerSeries> series = new LinkedHashMap<>();
        for (ServerSeriesInfo info : scraping.getSeries()) {
            double[] all = new double[n];
            int m = 0;
            double last = Double.NaN;
            double first = Double.NaN;
            for (ScrapeSample sc : scrapes) {
                double v = value(sc, info.getName());
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
                double v = value(scrapes.get(i), info.getName());
                values.add(Double.isNaN(v) ? null : v);
            }
            series.put(info.getName(), ServerSeries.newBuilder()
                    .setSource(info.getSource()).setKind(info.getKind()).setSamples(m)
                    .setMin(sorted[0]).setP50(NearestRank.ofSorted(sorted, 50)).setMax(sorted[m - 1]).setLast(last)
                    .setIncrease("counter".equals(info.getKind()) ? last - first : null)
                    .setValues(values).build());
        }
        return ServerMetrics.newBuilder()
                .setUrl(scraping.getUrl()).setScrapes(n).setFailedScrapes(scraping.getFailedScrapes())
                .setIntervalMs(scraping.getIntervalMs()).setFirstError(scraping.getFirstError())
                .setTMs(times).setSeries(series).build();
    }

    /**
     * The run's server metrics, computed from its scrapes ({@link #compute}) with the
     * {@code server_scraping} of the given RunFinished, else of the first worker's (by id) that has one (one
     * worker scrapes for a distributed run), over that worker's scrapes. Events of older generators carry no
     * {@code server_scraping} but their own summary in {@code RunFinished.server_metrics}: that one is copied
     * as before. Null when no worker scraped.
     *
     * @param st   the run's RunStarted, or null
     * @param fin  the run's (latest) RunFinished, or null
     * @param data the run's events; not null
     * @return the report's server metrics, or null
     */
    public static ServerMetrics forRun(RunStarted st, RunFinished fin, RunData data) {
        List<RunFinished> candidates = new ArrayList<>();
        Map<RunFinished, String> workerOf = new java.util.IdentityHashMap<>();
        if (fin != null) {
            candidates.add(fin);
        }
        if (data.workers() != null) {
            data.workers().forEach((worker, w) -> {
                if (w.finished() != null) {
                    candidates.add(w.finished());
                    workerOf.put(w.finished(), worker);
                }
            });
        }
        for (RunFinished f : candidates) {
            if (f.getServerScraping() != null) {
                String worker = workerOf.get(f);
                List<ScrapeSample> scrapes = worker == null ? data.serverScrapes() : data.serverScrapes().stream()
                        .filter(s -> worker.equals(s.workerId())).toList();
                return ServerMetricsCalculator.compute(f.getServerScraping(), scrapes,
                        st == null ? f.getStartedAtEpochMs() : st.getStartedAtEpochMs());
            }
        }
        for (RunFinished f : candidates) {
            if (f.getServerMetrics() != null) {
                return f.getServerMetrics();
            }
        }
        return null;
    }

    private static double tMs(ScrapeSample s, long startedAtEpochMs) {
        return s.tMs() != null ? s.tMs() : (double) (s.epochMs() - startedAtEpochMs);
    }

    /** @return the scrape's value of the series, or NaN when it lacked it */
    private static double value(ScrapeSample s, String name) {
        Double v = s.samples().get(name);
        return v == null ? Double.NaN : v;
    }
}
