package io.capstream.loadgen.servermetrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.capstream.loadgen.emit.InMemoryEventSink;
import io.capstream.loadgen.run.LoadGenerator;
import io.capstream.loadgen.run.RunConfig;
import io.capstream.loadgen.run.RunListener;
import io.capstream.loadgen.run.RunOutcome;
import io.capstream.loadgen.sim.SimConfig;
import io.capstream.loadgen.sim.SimEngine;
import io.capstream.schemas.avro.RunFinished;
import io.capstream.schemas.avro.ServerMetrics;
import io.capstream.schemas.avro.ServerSeries;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Scraping a real HTTP {@code /metrics} (the simulated engine's, written by the Prometheus Java client) during
 * a run: auto finds it beside {@code /v1}, the scrapes land in RunFinished, and the engine's own counts agree
 * with what the run sent.
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

    private RunConfig.Builder run() {
        return RunConfig.builder(sim.baseUrl(), SimConfig.defaults().modelId()).requests(6).concurrency(3)
                .maxTokens(40).ctxTokens(64).sharedPrefixTokens(0).maxModelLen(4096);
    }

    @Test
    void autoScrapesTheEnginesMetricsIntoRunFinished() throws Exception {
        InMemoryEventSink sink = new InMemoryEventSink();
        RunOutcome o = new LoadGenerator(vertx).run(run().serverMetrics(ServerMetricsConfig.AUTO).build(), sink,
                RunListener.NONE).get(60, TimeUnit.SECONDS);
        assertEquals(6, o.completed());
        RunFinished f = sink.payloads(RunFinished.class).get(0);
        ServerMetrics sm = f.getServerMetrics();
        assertNotNull(sm, "the sim's /metrics answers with Prometheus text");
        assertEquals(sim.baseUrl().replace("/v1", "/metrics"), sm.getUrl());
        assertTrue(sm.getScrapes() >= 3, "a ~4 s run scraped about once a second: " + sm.getScrapes());
        assertEquals(0, sm.getFailedScrapes());
        ServerSeries running = sm.getSeries().get("requests_running");
        assertEquals(3.0, running.getMax(), "the engine saw the run's 3 streams at once");
        ServerSeries tokens = sm.getSeries().get("generation_tokens");
        assertEquals("counter", tokens.getKind());
        assertEquals(6 * 40.0, tokens.getLast(), "the last scrape, after the slowest request, counts every token");
        // the first scrape ended before T0 (it raced the first requests and could miss their tokens): the
        // counter's increase over the run is exactly the run's tokens
        assertTrue(sm.getTMs().get(0) < 0, "baseline before T0: " + sm.getTMs());
        assertTrue(sm.getTMs().get(1) > 0, sm.getTMs().toString());
        assertEquals(0.0, tokens.getValues().get(0));
        assertEquals(6 * 40.0, tokens.getIncrease());
        assertEquals(sm.getTMs().size(), running.getValues().size());
        assertNotNull(o.serverMetrics());
        assertEquals(sm.getScrapes(), o.serverMetrics().scrapes().size());
        // each scrape is also a heartbeat in the run's event stream, for the windows: the requests' target and
        // model, in time order, all before RunFinished
        java.util.List<io.capstream.schemas.avro.RunEvent> events = sink.events();
        java.util.List<io.capstream.schemas.avro.RunEvent> beats = events.stream()
                .filter(e -> e.getPayload() instanceof io.capstream.schemas.avro.Heartbeat).toList();
        assertEquals(sm.getScrapes(), beats.size());
        String target = sink.payloads(io.capstream.schemas.avro.RequestCompleted.class).get(0).getTarget();
        long previous = 0;
        for (io.capstream.schemas.avro.RunEvent b : beats) {
            io.capstream.schemas.avro.Heartbeat h = (io.capstream.schemas.avro.Heartbeat) b.getPayload();
            assertEquals(target, h.getTarget());
            assertEquals(SimConfig.defaults().modelId(), h.getModel());
            assertThat(h.getServerSamples()).as(h.toString()).containsKey("requests_running");
            assertTrue(b.getEmittedAtMs() >= previous, "in time order");
            previous = b.getEmittedAtMs();
        }
        assertTrue(events.indexOf(beats.get(beats.size() - 1)) < events.indexOf(events.stream()
                .filter(e -> e.getPayload() instanceof RunFinished).findFirst().orElseThrow()), "before RunFinished");
    }

    @Test
    void offTheLibrarysDefaultAndAMissingEndpointScrapeNothing() throws Exception {
        InMemoryEventSink sink = new InMemoryEventSink();
        new LoadGenerator(vertx).run(run().build(), sink, RunListener.NONE)
                .get(60, TimeUnit.SECONDS);
        assertNull(sink.payloads(RunFinished.class).get(0).getServerMetrics());
        assertEquals("GET " + sim.baseUrl() + "/nothing answered 404",
                ServerMetricsScraper.probe(sim.baseUrl() + "/nothing", Duration.ofSeconds(2)));
    }

    @Test
    void aUrlThatFailsIsCountedAndTheRunGoesOn() throws Exception {
        InMemoryEventSink sink = new InMemoryEventSink();
        RunOutcome o = new LoadGenerator(vertx).run(run().serverMetrics(ServerMetricsConfig.parse(
                sim.baseUrl() + "/nothing")).build(), sink, RunListener.NONE).get(60, TimeUnit.SECONDS);
        assertEquals(6, o.completed());
        ServerMetrics sm = sink.payloads(RunFinished.class).get(0).getServerMetrics();
        assertEquals(0, sm.getScrapes());
        assertTrue(sm.getFailedScrapes() >= 2, "failed: " + sm.getFailedScrapes());
        assertEquals("GET " + sim.baseUrl() + "/nothing answered 404", sm.getFirstError());
    }
}
