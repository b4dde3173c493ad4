package io.capstream.cli.tail;

import io.capstream.schemas.Topics;
import io.capstream.schemas.avro.BenchmarkReport;
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
    /** {@code capstream.sweeps}: SweepCurve (no target or model: {@code --target} / {@code --model} match none). */
    SWEEPS(Topics.SWEEPS, SweepCurve.class);

    private final String topic;
    private final Class<? extends SpecificRecord> type;

    TailKind(String topic, Class<? extends SpecificRecord> type) {
        this.topic = topic;
        this.type = type;
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
        return ((SloBreach) record).getModel();
    }
}
