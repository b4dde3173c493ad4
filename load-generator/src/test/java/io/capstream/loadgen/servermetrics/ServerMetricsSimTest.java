package io.capstream.loadgen.servermetrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.capstream.loadgen.emit.InMemoryEventSink;
import io.capstream.loadgen.run.LoadGenerator;
import io.capstream.loadgen.run.RunConfig;
import io.capstream.loadgen.run.TargetConfig;
import io.capstream.loadgen.run.RunListener;
import io.capstream.loadgen.run.RunOutcome;
import io.capstream.loadgen.sim.SimConfig;
import io.capstream.loadgen.sim.SimEngine;
import io.capstream.schemas.avro.Heartbeat;
import io.capstream.schemas.avro.RequestCompleted;
import io.capstream.schemas.avro.RunEvent;
import io.capstream.schemas.avro.RunFinished;
import io.capstream.schemas.avro.ServerScraping;
import io.capstream.schemas.avro.ServerSeriesInfo;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Scraping a real HTTP {@code /metrics} (the simulated engine's, written by the Prometheus Java client) during
 * a run: auto finds it beside {@code /v1}, the scrapes land in the run's events as heartbeats (RunFinished says
 * how they were taken), and the engine's own counts agree with what the run sent.
 */
class ServerMetricsSimTest {
    private Vertx vertx;
    private SimEngine sim;

    @BeforeEach
    void start() throws Exception {
        vertx = Vertx.vertx();
        // 40 tokens at 20 tokens/s: each request streams for about 2 s, so the run spans several scrapes
        sim = SimEngine.start(vertx, SimConfig.builder().ttftBaseMs(5).streamDecodeTokPerS(20).tickMs(5).build())
                .toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS);
    }

    @AfterEach
    void stop() {
        sim.close();
        vertx.close().toCompletionStage().toCompletableFuture().join();
    }

    private RunConfig run() {
        return RunConfig.of(TargetConfig.of(sim.baseUrl(), SimConfig.defaults().modelId()))
                .withLoad(l -> l.withRequests(6).withConcurrency(3))
                .withRequest(r -> r.withMaxTokens(40).withCtxTokens(64).withSharedPrefixTokens(0).withMaxModelLen(4096));
    }

    @Test
    void autoScrapesTheEnginesMetricsIntoHeartbeatsAndRunFinishedSaysHow() throws Exception {
        InMemoryEventSink sink = new InMemoryEventSink();
        RunOutcome o = new LoadGenerator(vertx).run(run().withServerMetrics(ServerMetricsConfig.AUTO), sink,
                RunListener.NONE).get(60, TimeUnit.SECONDS);
        assertThat(o.completed()).isEqualTo(6);
        RunFinished f = sink.payloads(RunFinished.class).get(0);
        assertThat(f.getServerMetrics()).as("no statistic from the generator: the aggregator computes them").isNull();
        ServerScraping sc = f.getServerScraping();
        assertThat(sc).as("the sim's /metrics answers with Prometheus text").isNotNull();
        assertThat(sc.getUrl()).isEqualTo(sim.baseUrl().replace("/v1", "/metrics"));
        assertThat(sc.getIntervalMs()).isEqualTo(ServerMetricsConfig.AUTO.intervalMs());
        assertThat(sc.getFailedScrapes()).as("failed scrapes").isZero();
        Map<String, ServerSeriesInfo> series = sc.getSeries().stream()
                .collect(Collectors.toMap(ServerSeriesInfo::getName, x -> x));
        assertThat(series.get("generation_tokens").getKind()).isEqualTo("counter");
        assertThat(series.get("requests_running").getSource()).isEqualTo("capstream_sim:requests_running");
        // each scrape is a heartbeat in the run's event stream, for the windows and the report: the requests'
        // target and model, its time after T0 as the recording has it, in time order, all before RunFinished
        List<RunEvent> events = sink.events();
        List<RunEvent> beats = events.stream().filter(e -> e.getPayload() instanceof Heartbeat).toList();
        List<ServerScrape> recorded = o.serverMetrics().scrapes();
        assertThat(beats).as("one heartbeat per successful scrape").hasSize(recorded.size());
        assertThat(recorded.size()).as("a ~4 s run scraped about once a second").isGreaterThanOrEqualTo(3);
        String target = sink.payloads(RequestCompleted.class).get(0).getTarget();
        long previous = 0;
        double running = 0;
        for (int i = 0; i < beats.size(); i++) {
            Heartbeat h = (Heartbeat) beats.get(i).getPayload();
            assertThat(h.getTarget()).isEqualTo(target);
            assertThat(h.getModel()).isEqualTo(SimConfig.defaults().modelId());
            assertThat(h.getServerSamples()).as("scrape %d", i).containsKey("requests_running");
            assertThat(h.getServerTMs()).as("scrape %d's time after T0", i).isEqualTo(recorded.get(i).tMs());
            assertThat(beats.get(i).getEmittedAtMs()).as("in time order").isGreaterThanOrEqualTo(previous);
            previous = beats.get(i).getEmittedAtMs();
            running = Math.max(running, h.getServerSamples().get("requests_running"));
        }
        assertThat(running).as("the engine saw the run's 3 streams at once").isEqualTo(3.0);
        // the first scrape ended before T0 (it raced the first requests and could miss their tokens); the last,
        // after the slowest request, counts every token
        Heartbeat first = (Heartbeat) beats.get(0).getPayload();
        Heartbeat last = (Heartbeat) beats.get(beats.size() - 1).getPayload();
        assertThat(first.getServerTMs()).as("baseline before T0").isNegative();
        assertThat(((Heartbeat) beats.get(1).getPayload()).getServerTMs()).isPositive();
        assertThat(first.getServerSamples().get("generation_tokens")).isEqualTo(0.0);
        assertThat(last.getServerSamples().get("generation_tokens")).isEqualTo(6 * 40.0);
        assertThat(events.indexOf(beats.get(beats.size() - 1))).as("before RunFinished")
                .isLessThan(events.indexOf(events.stream().filter(e -> e.getPayload() instanceof RunFinished)
                        .findFirst().orElseThrow()));
    }

    @Test
    void offTheLibrarysDefaultAndAMissingEndpointScrapeNothing() throws Exception {
        InMemoryEventSink sink = new InMemoryEventSink();
        new LoadGenerator(vertx).run(run(), sink, RunListener.NONE)
                .get(60, TimeUnit.SECONDS);
        assertThat(sink.payloads(RunFinished.class).get(0).getServerScraping()).as("not scraped").isNull();
        assertEquals("GET " + sim.baseUrl() + "/nothing answered 404",
                ServerMetricsScraper.probe(sim.baseUrl() + "/nothing", Duration.ofSeconds(2)));
    }

    @Test
    void aUrlThatFailsIsCountedAndTheRunGoesOn() throws Exception {
        InMemoryEventSink sink = new InMemoryEventSink();
        RunOutcome o = new LoadGenerator(vertx).run(run()
                .withServerMetrics(ServerMetricsConfig.parse(
                sim.baseUrl() + "/nothing")), sink, RunListener.NONE).get(60, TimeUnit.SECONDS);
        assertEquals(6, o.completed());
        ServerScraping sc = sink.payloads(RunFinished.class).get(0).getServerScraping();
        assertThat(sink.payloads(Heartbeat.class)).as("no successful scrape").isEmpty();
        assertThat(sc.getFailedScrapes()).as("failed scrapes").isGreaterThanOrEqualTo(2);
        assertThat(sc.getFirstError()).isEqualTo("GET " + sim.baseUrl() + "/nothing answered 404");
    }
}
