package io.capstream.cli.tail;

import io.capstream.schemas.Topics;
import io.capstream.schemas.avro.BenchmarkReport;
import io.capstream.schemas.avro.ChangePoint;
import io.capstream.schemas.avro.ServerMetricsScrape;
import io.capstream.schemas.avro.SloBreach;
import io.capstream.schemas.avro.SweepCurve;
import io.capstream.schemas.avro.WindowSummary;
import org.apache.avro.specific.SpecificRecord;

/** What {@code capstream tail} reads: the topic and its record class. */
public enum TailKind {
    /** {@code capstream.reports}: BenchmarkReport. */
    REPORTS(Topics.REPORTS, BenchmarkReport.class),
    /** {@code capstream.summaries}: WindowSummary. */
    SUMMARIES(Topics.SUMMARIES, WindowSummary.class),
    /** {@code capstream.alerts}: SloBreach. */
    ALERTS(Topics.ALERTS, SloBreach.class),
    /** {@code capstream.changes}: ChangePoint (issue 32: lasting shifts of window percentiles). */
    CHANGES(Topics.CHANGES, ChangePoint.class),
    /** {@code capstream.sweeps}: SweepCurve (no target or model: {@code --target} / {@code --model} match none). */
    SWEEPS(Topics.SWEEPS, SweepCurve.class),
    /** {@code capstream.server-metrics}: ServerMetricsScrape (the endpoints' own metrics during runs). */
    SERVER_METRICS(Topics.SERVER_METRICS, ServerMetricsScrape.class);

    private final String topic;
    private final Class<? extends SpecificRecord> type;

    TailKind(String topic, Class<? extends SpecificRecord> type) {
        this.topic = topic;
        this.type = type;
    }

    /**
     * @param name the command-line name: reports, summaries, alerts, changes, sweeps or server-metrics (any case)
     * @return the kind
     * @throws IllegalArgumentException for another name
     */
    public static TailKind parse(String name) {
        return valueOf(name.strip().replace('-', '_').toUpperCase(java.util.Locale.ROOT));
    }

    /** @return the topic name */
    public String topic() {
        return topic;
    }

    /** @return the Avro class of the values */
    public Class<? extends SpecificRecord> type() {
        return type;
    }

    /**
     * @param record a value of this kind
     * @return its target (reports: base_url); null for sweeps
     */
    public String target(SpecificRecord record) {
        if (record instanceof SweepCurve) {
            return null;
        }
        if (record instanceof BenchmarkReport r) {
            return r.getBaseUrl();
        }
        if (record instanceof WindowSummary s) {
            return s.getTarget();
        }
        if (record instanceof ServerMetricsScrape m) {
            return m.getTarget();
        }
        if (record instanceof ChangePoint c) {
            return c.getTarget();
        }
        return ((SloBreach) record).getTarget();
    }

    /**
     * @param record a value of this kind
     * @return its model; null for sweeps
     */
    public String model(SpecificRecord record) {
        if (record instanceof SweepCurve) {
            return null;
        }
        if (record instanceof BenchmarkReport r) {
            return r.getModel();
        }
        if (record instanceof WindowSummary s) {
            return s.getModel();
        }
        if (record instanceof ServerMetricsScrape m) {
            return m.getModel();
        }
        if (record instanceof ChangePoint c) {
            return c.getModel();
        }
        return ((SloBreach) record).getModel();
    }
}
