package io.capstream.loadgen.servermetrics;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Scrapes an endpoint's Prometheus metrics about once per interval on a thread of its own, with the JDK's
 * HTTP client, so that the event loops that stamp the run's chunks never parse or wait for a scrape. Started
 * at T0 and stopped when the slowest request ended; nothing goes to Kafka while it runs (the recording is
 * sent with the run's events). A failing scrape is counted and the next one is tried. Thread-safe.
 */
public final class ServerMetricsScraper {
    /** Longest a scrape's GET may take, ms. */
    public static final long SCRAPE_TIMEOUT_MS = 2000;
    private final String url;
    private final int intervalMs;
    private final long t0Nanos;
    private final HttpClient http;
    private final ScheduledExecutorService timer;
    private final List<SeriesInfo> series = new ArrayList<>();
    private final Map<String, Integer> index = new HashMap<>();
    private final List<ServerScrape> scrapes = new ArrayList<>();
    private final ScrapeListener listener;
    private int failed;
    private String firstError;

    /** Told each successful scrape, on the scraper's thread. */
    @FunctionalInterface
    public interface ScrapeListener {
        /**
         * @param epochMs when the response arrived, epoch ms
         * @param samples series name to value (a new map each time)
         */
        void scraped(long epochMs, Map<String, Double> samples);
    }

    private ServerMetricsScraper(String url, int intervalMs, long t0Nanos, ScrapeListener listener) {
        this.url = url;
        this.intervalMs = intervalMs;
        this.t0Nanos = t0Nanos;
        this.listener = listener;
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "capstream-server-metrics");
            t.setDaemon(true);
            return t;
        });
        // HTTP/1.1: engines' metrics endpoints speak it, and the JDK's default h2c upgrade offer is one more exchange
        this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofMillis(SCRAPE_TIMEOUT_MS)).build();
    }

    /**
     * Starts scraping now (the first scrape at once, then every {@code intervalMs}).
     *
     * @param url        the metrics URL; not null
     * @param intervalMs scrape period, ms, &gt; 0
     * @param t0Nanos    the run's T0 ({@link System#nanoTime()}); scrape times are relative to it
     * @return the running scraper
     */
    public static ServerMetricsScraper start(String url, int intervalMs, long t0Nanos) {
        return start(url, intervalMs, t0Nanos, (t, m) -> { });
    }

    /**
     * As {@link #start(String, int, long)}, telling {@code listener} each successful scrape.
     *
     * @param url        the metrics URL; not null
     * @param intervalMs scrape period, ms, &gt; 0
     * @param t0Nanos    the run's T0 ({@link System#nanoTime()})
     * @param listener   told each successful scrape on the scraper's thread; its exceptions are ignored
     * @return the running scraper
     */
    public static ServerMetricsScraper start(String url, int intervalMs, long t0Nanos, ScrapeListener listener) {
        ServerMetricsScraper s = new ServerMetricsScraper(url, intervalMs, t0Nanos, listener);
        s.timer.scheduleAtFixedRate(s::scrapeOnce, 0, intervalMs, TimeUnit.MILLISECONDS);
        return s;
    }

    /**
     * Looks once whether a URL serves Prometheus text (for {@code --server-metrics auto}). Blocks.
     *
     * @param url     the metrics URL; not null
     * @param timeout how long the GET may take
     * @return null when it answered 200 with at least one sample, else why not (one line)
     * @throws InterruptedException when interrupted
     */
    public static String probe(String url, Duration timeout) throws InterruptedException {
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(timeout).build();
        try {
            HttpResponse<byte[]> r = client.send(request(url, timeout), HttpResponse.BodyHandlers.ofByteArray());
            if (r.statusCode() != 200) {
                return "GET " + url + " answered " + r.statusCode();
            }
            return PrometheusText.parse(r.body()).isEmpty() ? "GET " + url + " has no Prometheus samples" : null;
        } catch (IOException | IllegalArgumentException e) {
            return "GET " + url + ": " + describe(e);
        }
    }

    /** @return the exception's message, else its cause's ("Connection refused"), with the exception's type */
    static String describe(Exception e) {
        if (e.getMessage() != null && !e.getMessage().isBlank()) {
            return e.getMessage();
        }
        Throwable c = e.getCause();
        return e.getClass().getSimpleName() + (c != null && c.getMessage() != null ? ": " + c.getMessage() : "");
    }

    private static HttpRequest request(String url, Duration timeout) {
        return HttpRequest.newBuilder(URI.create(url)).timeout(timeout).GET()
                .header("Accept", "text/plain;version=0.0.4;q=1,*/*;q=0.1").build();
    }

    private void scrapeOnce() {
        long sent = System.nanoTime();
        try {
            HttpResponse<byte[]> r = http.send(request(url, Duration.ofMillis(SCRAPE_TIMEOUT_MS)),
                    HttpResponse.BodyHandlers.ofByteArray());
            long arrived = System.nanoTime();
            long epochMs = System.currentTimeMillis();
            if (r.statusCode() != 200) {
                fail("GET " + url + " answered " + r.statusCode());
                return;
            }
            List<SeriesNames.Named> named = SeriesNames.name(PrometheusText.parse(r.body()));
            if (named.isEmpty()) {
                fail("GET " + url + " has no Prometheus samples");
                return;
            }
            record(epochMs, (arrived - t0Nanos) / 1e6, (arrived - sent) / 1e6, named);
            Map<String, Double> samples = new java.util.LinkedHashMap<>();
            named.forEach(n -> samples.putIfAbsent(n.name(), n.value()));
            try {
                listener.scraped(epochMs, samples);
            } catch (RuntimeException e) {
                // the listener's problem must not stop the scraping
            }
        } catch (IOException e) {
            fail("GET " + url + ": " + describe(e));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            fail("GET " + url + ": " + e);
        }
    }

    private synchronized void record(long epochMs, double tMs, double scrapeMs, List<SeriesNames.Named> named) {
        for (SeriesNames.Named n : named) {
            if (!index.containsKey(n.name()) && series.size() < SeriesNames.MAX_SERIES) {
                index.put(n.name(), series.size());
                series.add(new SeriesInfo(n.name(), n.source(), n.kind()));
            }
        }
        double[] values = new double[series.size()];
        java.util.Arrays.fill(values, Double.NaN);
        for (SeriesNames.Named n : named) {
            Integer i = index.get(n.name());
            if (i != null) {
                values[i] = n.value();
            }
        }
        scrapes.add(new ServerScrape(epochMs, tMs, scrapeMs, values));
    }

    private synchronized void fail(String why) {
        failed++;
        if (firstError == null) {
            firstError = why;
        }
    }

    /** Stops scraping without waiting (a run that failed to start); what was recorded is dropped. */
    public void cancel() {
        timer.shutdownNow();
    }

    /**
     * Stops scraping after one last scrape (the one in progress and the last may take {@link #SCRAPE_TIMEOUT_MS}
     * each). Blocks; call it off the event loops.
     *
     * @return what was recorded
     */
    public ServerMetricsRecording stop() {
        // one last scrape after the slowest request ended, on the scraper's thread after any scrape in progress:
        // "last" is then the endpoint's state at the end of the run
        try {
            timer.submit(this::scrapeOnce);
        } catch (java.util.concurrent.RejectedExecutionException e) {
            // cancelled
        }
        timer.shutdown();
        try {
            timer.awaitTermination(2 * SCRAPE_TIMEOUT_MS + 500, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        timer.shutdownNow();
        synchronized (this) {
            return new ServerMetricsRecording(url, intervalMs, List.copyOf(series), List.copyOf(scrapes), failed,
                    firstError);
        }
    }
}
