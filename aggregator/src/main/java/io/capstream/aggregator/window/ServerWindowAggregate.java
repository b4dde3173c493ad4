package io.capstream.aggregator.window;

import io.capstream.schemas.avro.ServerWindowSeries;
import io.capstream.schemas.stats.NearestRank;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The endpoint's own metrics scraped during one window for one target and model: per series, every value
 * with its scrape time (a minute at about one scrape a second is some 60 values per series). Summarised into
 * the window summary's {@code server_metrics} (min, nearest-rank p50, max, last). Stored as bytes in the
 * window store: a version byte, the series count, then per series its name, its value count and
 * (time ms, value) pairs. Mutable, not thread-safe.
 */
final class ServerWindowAggregate {
    private static final byte VERSION = 1;
    private final Map<String, List<double[]>> series = new LinkedHashMap<>();

    /**
     * @param epochMs the scrape's time, epoch ms
     * @param samples series name to value; NaN values are skipped
     */
    void add(long epochMs, Map<String, Double> samples) {
        samples.forEach((name, v) -> {
            if (v != null && !Double.isNaN(v)) {
                series.computeIfAbsent(name, k -> new ArrayList<>()).add(new double[] {epochMs, v});
            }
        });
    }

    /** @return series name to min, nearest-rank p50 (spec §8.1), max and last (the latest scrape's value) */
    Map<String, ServerWindowSeries> summary() {
        Map<String, ServerWindowSeries> out = new LinkedHashMap<>();
        series.forEach((name, points) -> {
            double[] values = new double[points.size()];
            double lastT = Double.NEGATIVE_INFINITY;
            double last = Double.NaN;
            for (int i = 0; i < values.length; i++) {
                double[] p = points.get(i);
                values[i] = p[1];
                if (p[0] >= lastT) {
                    lastT = p[0];
                    last = p[1];
                }
            }
            Arrays.sort(values);
            out.put(name, ServerWindowSeries.newBuilder().setSamples(values.length).setMin(values[0])
                    .setP50(NearestRank.ofSorted(values, 50)).setMax(values[values.length - 1]).setLast(last).build());
        });
        return out;
    }

    /** @return the stored form */
    byte[] toBytes() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(VERSION);
            out.writeInt(series.size());
            for (Map.Entry<String, List<double[]>> e : series.entrySet()) {
                out.writeUTF(e.getKey());
                out.writeInt(e.getValue().size());
                for (double[] p : e.getValue()) {
                    out.writeLong((long) p[0]);
                    out.writeDouble(p[1]);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /**
     * @param bytes a stored form from {@link #toBytes()}
     * @return the aggregate
     * @throws IllegalArgumentException when the bytes are not a stored aggregate
     */
    static ServerWindowAggregate fromBytes(byte[] bytes) {
        ServerWindowAggregate a = new ServerWindowAggregate();
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
            if (in.readByte() != VERSION) {
                throw new IllegalArgumentException("unknown server window aggregate version");
            }
            int n = in.readInt();
            for (int i = 0; i < n; i++) {
                String name = in.readUTF();
                int m = in.readInt();
                List<double[]> points = new ArrayList<>(m);
                for (int j = 0; j < m; j++) {
                    points.add(new double[] {in.readLong(), in.readDouble()});
                }
                a.series.put(name, points);
            }
        } catch (IOException e) {
            throw new IllegalArgumentException("not a server window aggregate: " + e.getMessage(), e);
        }
        return a;
    }
}
