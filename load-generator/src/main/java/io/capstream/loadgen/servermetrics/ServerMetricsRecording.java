package io.capstream.loadgen.servermetrics;

import java.util.List;

/**
 * What {@link ServerMetricsScraper} recorded over a run.
 *
 * @param url        the metrics URL
 * @param intervalMs scrape period, ms
 * @param series     the series table: index {@code i} describes {@link ServerScrape#values()}{@code [i]}
 * @param scrapes    the successful scrapes in time order
 * @param failed     scrapes that failed
 * @param firstError the first failure's message, or null
 */
public record ServerMetricsRecording(String url, int intervalMs, List<SeriesInfo> series,
                                     List<ServerScrape> scrapes, int failed, String firstError) {
}
