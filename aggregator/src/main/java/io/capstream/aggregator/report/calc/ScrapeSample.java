package io.capstream.aggregator.report.calc;

import java.util.Map;

/**
 * One scrape of the endpoint's own metrics as the run's events carry it (a Heartbeat with
 * {@code server_samples}): the input of {@link ServerMetricsCalculator}.
 *
 * @param workerId  the worker that scraped (the event's {@code worker_id}); not null
 * @param epochMs   when the scrape's response arrived, epoch ms (the event's {@code emitted_at_ms})
 * @param tMs       when it arrived, ms after the run's T0 ({@code Heartbeat.server_t_ms}); null from older
 *                  generators
 * @param samples   series name to value; not null
 */
public record ScrapeSample(String workerId, long epochMs, Double tMs, Map<String, Double> samples) {
}
