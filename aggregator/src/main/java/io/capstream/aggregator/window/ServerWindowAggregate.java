package io.capstream.aggregator.window;

import io.capstream.schemas.avro.ServerWindowPoints;
import io.capstream.schemas.avro.ServerWindowSeries;
import io.capstream.schemas.avro.ServerWindowState;
import io.capstream.schemas.stats.NearestRank;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The endpoint's own metrics scraped during one window for one target and model: per series, every value
 * with its scrape time (a minute at about one scrape a second is some 60 values per series), held in a
 * {@link ServerWindowState} (the record its store keeps, {@link ServerWindowStateSerde}). Summarised into the
 * window summary's {@code server_metrics} (min, nearest-rank p50 with {@link NearestRank}, max, last).
 * Mutable, not thread-safe.
 */
final class ServerWindowAggregate {
    private final ServerWindowState state;
    private final Map<String, ServerWindowPoints> byName = new HashMap<>();

    /** An empty aggregate. */
    ServerWindowAggregate() {
        this(new ServerWindowState(new ArrayList<>()));
    }

    /**
     * @param state a stored state, updated in place by {@link #add}; not null
     */
    ServerWindowAggregate(ServerWindowState state) {
        this.state = state;
        for (ServerWindowPoints p : state.getSeries()) {
            byName.put(p.getName(), p);
        }
    }

    /**
     * @param epochMs the scrape's time, epoch ms
     * @param samples series name to value; null and NaN values are skipped
     */
    void add(long epochMs, Map<String, Double> samples) {
        samples.forEach((name, v) -> {
            if (v != null && !Double.isNaN(v)) {
                ServerWindowPoints p = byName.computeIfAbsent(name, k -> {
                    ServerWindowPoints created = new ServerWindowPoints(k, new ArrayList<>(), new ArrayList<>());
                    state.getSeries().add(created);
                    return created;
                });
                p.getEpochMs().add(epochMs);
                p.getValues().add(v);
            }
        });
    }

    /** @return series name to min, nearest-rank p50 (spec §8.1), max and last (the latest scrape's value) */
    Map<String, ServerWindowSeries> summary() {
        Map<String, ServerWindowSeries> out = new LinkedHashMap<>();
        for (ServerWindowPoints p : state.getSeries()) {
            List<Double> points = p.getValues();
            double[] values = new double[points.size()];
            long lastT = Long.MIN_VALUE;
            double last = Double.NaN;
            for (int i = 0; i < values.length; i++) {
                values[i] = points.get(i);
                long t = p.getEpochMs().get(i);
                if (t >= lastT) {
                    lastT = t;
                    last = values[i];
                }
            }
            if (values.length == 0) {
                continue;
            }
            Arrays.sort(values);
            out.put(p.getName(), ServerWindowSeries.newBuilder().setSamples(values.length).setMin(values[0])
                    .setP50(NearestRank.ofSorted(values, 50)).setMax(values[values.length - 1]).setLast(last).build());
        }
        return out;
    }

    /** @return the state to store (the same object {@link #add} updates) */
    ServerWindowState state() {
        return state;
    }
}
