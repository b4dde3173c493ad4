package io.capstream.loadgen.run;

import io.capstream.loadgen.selfcheck.SelfCheck;
import io.capstream.loadgen.selfcheck.WarmupResult;
import io.capstream.loadgen.servermetrics.ServerMetricsConfig;
import io.capstream.loadgen.servermetrics.ServerMetricsRecording;
import io.capstream.loadgen.servermetrics.ServerMetricsScraper;
import io.capstream.schemas.avro.ClientCheck;
import io.capstream.schemas.text.HttpUrls;
import io.capstream.schemas.time.CapClock;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * What watches a run beside its requests: the endpoint's server metrics (found before the warm-up, a baseline scrape
 * before T0, scrapes every interval from T0 to the last request's end) and the client's {@link SelfCheck} (started
 * after the warm-up's garbage was collected, stopped with the run's wall clock). Neither sends a request of the run.
 * Used by one run's threads in turn (the start, then the end); not for concurrent use.
 */
final class SideProbes {
    /** How long the look whether a metrics URL answers may take. */
    static final Duration PROBE_TIMEOUT = Duration.ofSeconds(2);
    private final Vertx vertx;
    private final RunConfig config;
    private final ShareAssignment assignment;
    private final GuardedListener listener;
    private final CapClock clock;
    /** The metrics URL scraped from T0, or null (off, not found, or not share 0 of a distributed run). */
    private String serverMetricsUrl;
    private ServerMetricsScraper scraper;
    private SelfCheck selfCheck;

    /**
     * @param vertx      the run's Vert.x; not null
     * @param config     the run's settings; not null
     * @param assignment the share a worker executes, or null for a run sent by one process
     * @param listener   told the notices; not null
     * @param clock      the scrapes' clock; not null
     */
    SideProbes(Vertx vertx, RunConfig config, ShareAssignment assignment, GuardedListener listener, CapClock clock) {
        this.vertx = vertx;
        this.config = config;
        this.assignment = assignment;
        this.listener = listener;
        this.clock = clock;
    }

    /**
     * Finds where the endpoint's metrics are scraped: the configured URL (one look first, so that a wrong URL is said
     * before the run rather than only in the summary), or for auto {@code <base>/metrics} when it answers with
     * Prometheus text (one GET, off the event loops); none when off, not found, or this is a share other than 0 of a
     * distributed run (one worker scrapes for all).
     *
     * @return the URL, or null for none; never fails for a URL that does not answer
     */
    /** @return the run's https trust for the scraper (issue 30), or null for the JVM's default */
    private javax.net.ssl.SSLContext ssl() {
        return config.target().tls().clientTls().sslContext();
    }

    Future<String> discoverServerMetrics() {
        ServerMetricsConfig sm = config.serverMetrics();
        if (sm.mode() == ServerMetricsConfig.Mode.OFF || (assignment != null && assignment.share().share() != 0)) {
            return Future.succeededFuture();
        }
        if (sm.mode() == ServerMetricsConfig.Mode.URL) {
            javax.net.ssl.SSLContext ssl = ssl();
            return vertx.executeBlocking(() -> ServerMetricsScraper.probe(sm.url(), PROBE_TIMEOUT, ssl), false).map(why -> {
                listener.notice("server metrics: scraping " + sm.url() + " every " + sm.intervalMs()
                        + " ms during the run" + (why == null ? ""
                        : "; warning: " + why + " (failed scrapes are counted, the run goes on)"));
                serverMetricsUrl = sm.url();
                return serverMetricsUrl;
            });
        }
        String url = ServerMetricsConfig.defaultUrl(HttpUrls.withoutUserInfo(config.target().baseUrl()));
        javax.net.ssl.SSLContext ssl = ssl();
        return vertx.executeBlocking(() -> ServerMetricsScraper.probe(url, PROBE_TIMEOUT, ssl), false).map(why -> {
            if (why != null) {
                return null;
            }
            listener.notice("server metrics: " + url + " answers with Prometheus text; scraping it every "
                    + sm.intervalMs() + " ms during the run (--server-metrics off to skip)");
            serverMetricsUrl = url;
            return url;
        });
    }

    /**
     * After the warm-up: collects the start-up and warm-up garbage (so that it is not collected during the run),
     * starts the self-check on the run's contexts, then takes the baseline scrape (which ends before T0, so that a
     * counter's increase is the run's own work).
     *
     * @param contexts the run's event-loop contexts; not null
     * @return the self-check, started; fails when it could not start
     */
    Future<SelfCheck> start(List<Context> contexts) {
        return vertx.executeBlocking(() -> {
                    System.gc();
                    return null;
                }, false)
                .compose(x -> SelfCheck.start(vertx, contexts, isLocal(config.target().baseUrl())))
                .compose(sc -> {
                    selfCheck = sc;
                    return serverMetricsUrl == null ? Future.succeededFuture(sc) : vertx.executeBlocking(() -> {
                        scraper = ServerMetricsScraper.open(serverMetricsUrl, config.serverMetrics().intervalMs(),
                                clock, ssl());
                        scraper.baseline();
                        return sc;
                    }, false);
                });
    }

    /**
     * Starts the scrapes at T0 (nothing when no metrics are scraped).
     *
     * @param t0Nanos  the run's T0 on the clock's monotonic scale
     * @param listener told each scrape (epoch ms, samples) on the scraper's thread; not null
     */
    void beginScraping(long t0Nanos, ServerMetricsScraper.ScrapeListener listener) {
        if (scraper != null) {
            scraper.begin(t0Nanos, listener);
        }
    }

    /** Stops the scrapes at once, keeping no recording (a run that did not start). */
    void cancel() {
        if (scraper != null) {
            scraper.cancel();
        }
    }

    /**
     * Ends the run's probes: the last scrape (off the event loops), then the self-check's verdict.
     *
     * @param wallNs   the run's wall clock, ns
     * @param warmup   what the warm-up did
     * @param delivery the sink's delivery mode, as in the self-check
     * @return the recording (null when no metrics were scraped) and the client check (null when it failed)
     */
    Future<Ended> stop(long wallNs, WarmupResult warmup, String delivery) {
        ServerMetricsScraper scraping = scraper;
        Future<ServerMetricsRecording> recorded = scraping == null ? Future.succeededFuture()
                : vertx.executeBlocking(scraping::stop, false);
        return recorded.compose(r -> selfCheck.stop(wallNs, warmup, delivery))
                .transform(check -> Future.succeededFuture(new Ended(recorded.result(),
                        check.succeeded() ? check.result() : null)));
    }

    /**
     * What the probes saw of a run.
     *
     * @param recording the server metrics' scrapes, or null when none were scraped
     * @param check     the client self-check, or null when it failed
     */
    record Ended(ServerMetricsRecording recording, ClientCheck check) {
    }

    /** @return the self-check as the requests tell it (after {@link #start}) */
    RequestPipeline.Observer observer() {
        return observerOf(selfCheck);
    }

    /**
     * @param sc a self-check; not null
     * @return {@code sc} as the requests tell it
     */
    static RequestPipeline.Observer observerOf(SelfCheck sc) {
        return new RequestPipeline.Observer() {
            @Override
            public void inFlight(int n) {
                sc.inFlight(n);
            }

            @Override
            public void request(long e2eNs, int chunks) {
                sc.request(e2eNs, chunks);
            }
        };
    }

    /** @return whether the URL's host is a loopback name or address (the target shares this machine) */
    static boolean isLocal(String baseUrl) {
        try {
            String host = URI.create(baseUrl).getHost();
            if (host == null) {
                return false;
            }
            host = host.toLowerCase(Locale.ROOT);
            return host.equals("localhost") || host.startsWith("127.") || host.equals("[::1]") || host.equals("::1");
        } catch (IllegalArgumentException e) {
            return false;
        }
    }
}
