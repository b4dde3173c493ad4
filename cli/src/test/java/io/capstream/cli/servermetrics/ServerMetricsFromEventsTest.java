package io.capstream.cli.servermetrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.capstream.aggregator.report.calc.ReportCalculator;
import io.capstream.aggregator.report.calc.RunData;
import io.capstream.aggregator.report.calc.ScrapeSample;
import io.capstream.loadgen.emit.InMemoryEventSink;
import io.capstream.loadgen.run.LoadGenerator;
import io.capstream.loadgen.run.RunConfig;
import io.capstream.loadgen.run.TargetConfig;
import io.capstream.loadgen.run.RunListener;
import io.capstream.loadgen.run.RunOutcome;
import io.capstream.loadgen.servermetrics.SeriesInfo;
import io.capstream.loadgen.servermetrics.ServerMetricsConfig;
import io.capstream.loadgen.servermetrics.ServerMetricsRecording;
import io.capstream.loadgen.servermetrics.ServerScrape;
import io.capstream.loadgen.sim.SimConfig;
import io.capstream.loadgen.sim.SimEngine;
import io.capstream.schemas.avro.Heartbeat;
import io.capstream.schemas.avro.RequestCompleted;
import io.capstream.schemas.avro.RequestFailed;
import io.capstream.schemas.avro.RunEvent;
import io.capstream.schemas.avro.RunFinished;
import io.capstream.schemas.avro.RunStarted;
import io.capstream.schemas.avro.ServerMetrics;
import io.capstream.schemas.avro.ServerSeries;
import io.capstream.schemas.stats.NearestRank;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * End to end, generator to report: a run against the simulated engine's {@code /metrics} sends its scrapes as
 * heartbeats and says in RunFinished how it scraped; the report's {@code server_metrics}, computed by the
 * aggregator's calculator from those events alone, is what the generator's own recording of the scrapes says.
 */
class ServerMetricsFromEventsTest {
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

    @Test
    void theReportsServerMetricsFromTheEventsAreTheRecordedScrapes() throws Exception {
        InMemoryEventSink sink = new InMemoryEventSink();
        RunOutcome o = new LoadGenerator(vertx).run(RunConfig.of(TargetConfig.of(sim.baseUrl(), SimConfig.defaults().modelId()))
                .withServerMetrics(ServerMetricsConfig.AUTO)
                .withLoad(l -> l.withRequests(6).withConcurrency(3))
                .withRequest(r -> r.withMaxTokens(40).withCtxTokens(64).withSharedPrefixTokens(0).withMaxModelLen(4096)), sink, RunListener.NONE).get(60, TimeUnit.SECONDS);
        List<ScrapeSample> scrapes = new ArrayList<>();
        for (RunEvent e : sink.events()) {
            if (e.getPayload() instanceof Heartbeat h) {
                scrapes.add(new ScrapeSample(e.getWorkerId(), e.getEmittedAtMs(), h.getServerTMs(),
                        h.getServerSamples()));
            }
        }
        ServerMetrics sm = ReportCalculator.compute(new RunData(o.runId(),
                sink.payloads(RunStarted.class).get(0), sink.payloads(RequestCompleted.class),
                sink.payloads(RequestFailed.class), sink.payloads(RunFinished.class).get(0), null, null, scrapes))
                .getServerMetrics();

        ServerMetricsRecording rec = o.serverMetrics();
        assertThat(sm).as("server_metrics of the report").isNotNull();
        assertThat(sm.getUrl()).isEqualTo(rec.url());
        assertThat(sm.getScrapes()).as("scrapes").isEqualTo(rec.scrapes().size()).isGreaterThanOrEqualTo(3);
        assertThat(sm.getFailedScrapes()).isEqualTo(rec.failed());
        assertThat(sm.getTMs()).as("t_ms (every scrape: fewer than 600)")
                .isEqualTo(rec.scrapes().stream().map(ServerScrape::tMs).toList());
        for (int i = 0; i < rec.series().size(); i++) {
            SeriesInfo info = rec.series().get(i);
            int s = i;
            List<Double> values = rec.scrapes().stream().map(sc -> Double.isNaN(sc.value(s)) ? null : sc.value(s))
                    .toList();
            double[] present = values.stream().filter(v -> v != null).mapToDouble(Double::doubleValue).toArray();
            ServerSeries series = sm.getSeries().get(info.name());
            assertThat(series).as("series %s", info.name()).isNotNull();
            assertThat(series.getValues()).as("%s values", info.name()).isEqualTo(values);
            assertThat(series.getSource()).isEqualTo(info.source());
            assertThat(series.getKind()).isEqualTo(info.kind());
            assertThat(List.of(series.getMin(), series.getP50(), series.getMax(), series.getLast()))
                    .as("%s min, p50, max, last", info.name())
                    .containsExactly(Arrays.stream(present).min().orElseThrow(), NearestRank.percentile(present, 50),
                            Arrays.stream(present).max().orElseThrow(), present[present.length - 1]);
        }
        assertThat(sm.getSeries().get("requests_running").getMax()).as("the run's 3 streams at once").isEqualTo(3.0);
        assertThat(sm.getSeries().get("generation_tokens").getIncrease()).as("the run's tokens").isEqualTo(6 * 40.0);
    }
}
