package io.capstream.loadgen.servermetrics;

import io.capstream.schemas.time.CapClock;
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
 * HTTP client, so that the event loops that stamp the run's chunks never parse or wait for a scrape. The first
 * scrape ({@link #baseline()}) ends before T0, so that a counter's increase over the run counts all of the
 * run's work and nothing before it; then {@link #begin} scrapes every interval from T0 until {@link #stop()},
 * when the slowest request ended; nothing goes to Kafka while it runs (the recording is sent with the run's
 * events). A failing scrape is counted and the next one is tried. Thread-safe.
 */
public final class ServerMetricsScraper {
    /** Longest a scrape's GET may take, ms. */
    public static final long SCRAPE_TIMEOUT_MS = 2000;
    private final String url;
    private final int intervalMs;
    private final HttpClient http;
    private final ScheduledExecutorService timer;
    private final CapClock clock;
    private final List<SeriesInfo> series = new ArrayList<>();
    private final Map<String, Integer> index = new HashMap<>();
    /** Successful scrapes in order, with their arrival time on the monotonic clock (T0 may come later). */
    private final List<Arrived> scrapes = new ArrayList<>();
    private volatile ScrapeListener listener;
    private long t0Nanos;
    /** The baseline's samples, kept until {@link #begin} tells the listener; null once told or when it failed. */
    private Told untold;
    private int failed;
    private String firstError;

    /** Told each successful scrape, on the scraper's thread. */
    @FunctionalInterface
    public interface ScrapeListener {
        /**
         * @param epochMs when the response arrived, epoch ms
         * @param tMs     when the response arrived, ms after T0 (as {@link ServerScrape#tMs()}; negative for the
         *                baseline scrape)
         * @param samples series name to value (a new map each time)
         */
        void scraped(long epochMs, double tMs, Map<String, Double> samples);
    }

    /** A successful scrape as recorded: arrival on the clock's monotonic scale, the rest as in {@link ServerScrape}. */
    private record Arrived(long epochMs, long arrivedNanos, double scrapeMs, double[] values) {
    }

    /** What a {@link ScrapeListener} is told of one scrape. */
    private record Told(long epochMs, long arrivedNanos, Map<String, Double> samples) {
    }

    private ServerMetricsScraper(String url, int intervalMs, CapClock clock, javax.net.ssl.SSLContext ssl) {
        this.url = url;
        this.intervalMs = intervalMs;
        this.clock = clock;
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "capstream-server-metrics");
            t.setDaemon(true);
            return t;
        });
        // HTTP/1.1: engines' metrics endpoints speak it, and the JDK's default h2c upgrade offer is one more exchange
        this.http = client(Duration.ofMillis(SCRAPE_TIMEOUT_MS), ssl);
    }

    /**
     * A scraper that has not scraped yet; {@link #baseline()} then {@link #begin} start it.
     *
     * @param url        the metrics URL; not null
     * @param intervalMs scrape period, ms, &gt; 0
     * @param clock      the scrapes' arrival times (wall and monotonic; {@link CapClock#system()} in a run, whose
     *                   monotonic scale is the run's T0's); not null
     * @return the scraper, idle
     */
    public static ServerMetricsScraper open(String url, int intervalMs, CapClock clock) {
        return new ServerMetricsScraper(url, intervalMs, clock, null);
    }

    /**
     * As {@link #open(String, int, CapClock)}, for an https URL checked with this SSL context (issue 30's
     * {@code --insecure} / {@code --ca-cert}).
     *
     * @param url        the metrics URL; not null
     * @param intervalMs scrape period, ms, &gt; 0
     * @param clock      the scrapes' arrival times; not null
     * @param ssl        the SSL context, or null for the JVM's default
     * @return the scraper, idle
     */
    public static ServerMetricsScraper open(String url, int intervalMs, CapClock clock, javax.net.ssl.SSLContext ssl) {
        return new ServerMetricsScraper(url, intervalMs, clock, ssl);
    }

    /** @return the JDK HTTP/1.1 client of the scrapes (HTTP/1.1: no h2c upgrade offer, one exchange fewer) */
    private static HttpClient client(Duration timeout, javax.net.ssl.SSLContext ssl) {
        HttpClient.Builder b = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(timeout);
        if (ssl != null) {
            b.sslContext(ssl);
        }
        return b.build();
    }

    /**
     * The first scrape, before T0: blocks until it ended (at most {@link #SCRAPE_TIMEOUT_MS}; a failure is
     * counted). Call it off the event loops, once, before {@link #begin}.
     */
    public void baseline() {
        try {
            timer.submit(this::scrapeOnce).get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.RejectedExecutionException e) {
            // scrapeOnce counts its own failures; a cancelled scraper has nothing to start
        }
    }

    /**
     * Starts the periodic scrapes at T0: tells {@code listener} the baseline scrape (if it succeeded), then
     * scrapes every {@code intervalMs} from T0 + interval. Scrape times in the recording are relative to
     * {@code t0Nanos} (the baseline's is negative).
     *
     * @param t0Nanos  the run's T0, on the clock's monotonic scale
     * @param listener told each successful scrape on the scraper's thread; its exceptions are ignored; not null
     */
    public void begin(long t0Nanos, ScrapeListener listener) {
        Told first;
        synchronized (this) {
            this.t0Nanos = t0Nanos;
            first = untold;
            untold = null;
        }
        this.listener = listener;
        try {
            timer.execute(() -> {
                if (first != null) {
                    tell(first);
                }
            });
            timer.scheduleAtFixedRate(this::scrapeOnce, intervalMs, intervalMs, TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.RejectedExecutionException e) {
            // cancelled
        }
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
        return probe(url, timeout, null);
    }

    /**
     * As {@link #probe(String, Duration)}, checking an https URL with this SSL context.
     *
     * @param url     the metrics URL; not null
     * @param timeout how long the GET may take
     * @param ssl     the SSL context, or null for the JVM's default
     * @return null when it answered 200 with at least one sample, else why not (one line)
     * @throws InterruptedException when interrupted
     */
    public static String probe(String url, Duration timeout, javax.net.ssl.SSLContext ssl) throws InterruptedException {
        HttpClient client = client(timeout, ssl);
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
        long sent = clock.nanoTime();
        try {
            HttpResponse<byte[]> r = http.send(request(url, Duration.ofMillis(SCRAPE_TIMEOUT_MS)),
                    HttpResponse.BodyHandlers.ofByteArray());
            long arrived = clock.nanoTime();
            long epochMs = clock.millis();
            if (r.statusCode() != 200) {
                fail("GET " + url + " answered " + r.statusCode());
                return;
            }
            List<SeriesNames.Named> named = SeriesNames.name(PrometheusText.parse(r.body()));
            if (named.isEmpty()) {
                fail("GET " + url + " has no Prometheus samples");
                return;
            }
            Map<String, Double> samples = new java.util.LinkedHashMap<>();
            named.forEach(n -> samples.putIfAbsent(n.name(), n.value()));
            record(epochMs, arrived, (arrived - sent) / 1e6, named);
            Told told = new Told(epochMs, arrived, samples);
            if (listener != null) {
                tell(told);
            } else {
                synchronized (this) {
                    untold = told; // before begin: only the baseline scrape runs then
                }
            }
        } catch (IOException e) {
            fail("GET " + url + ": " + describe(e));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            fail("GET " + url + ": " + e);
        }
    }

    private void tell(Told a) {
        try {
            long t0;
            synchronized (this) {
                t0 = t0Nanos;
            }
            listener.scraped(a.epochMs(), (a.arrivedNanos() - t0) / 1e6, a.samples());
        } catch (RuntimeException e) {
            // the listener's problem must not stop the scraping
        }
    }

    private synchronized void record(long epochMs, long arrivedNanos, double scrapeMs,
                                     List<SeriesNames.Named> named) {
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
        scrapes.add(new Arrived(epochMs, arrivedNanos, scrapeMs, values));
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
            List<ServerScrape> out = new ArrayList<>(scrapes.size());
            for (Arrived a : scrapes) {
                out.add(new ServerScrape(a.epochMs(), (a.arrivedNanos() - t0Nanos) / 1e6, a.scrapeMs(), a.values()));
            }
            return new ServerMetricsRecording(url, intervalMs, List.copyOf(series), out, failed, firstError);
        }
    }
}
