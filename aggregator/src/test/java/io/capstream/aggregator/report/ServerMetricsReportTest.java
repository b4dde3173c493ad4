package io.capstream.aggregator.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.capstream.schemas.avro.BenchmarkReport;
import io.capstream.schemas.avro.Heartbeat;
import io.capstream.schemas.avro.RunEvent;
import io.capstream.schemas.avro.RunFinished;
import io.capstream.schemas.avro.RunStarted;
import io.capstream.schemas.avro.ServerMetrics;
import io.capstream.schemas.avro.ServerScraping;
import io.capstream.schemas.avro.ServerSeries;
import io.capstream.schemas.avro.ServerSeriesInfo;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The report's {@code server_metrics} computed by the aggregator from the scrapes in the run's events
 * (Heartbeats with {@code server_samples} and {@code server_t_ms}) and the scraping worker's
 * {@code RunFinished.server_scraping}: the same for the live run, its replay and a run restored from the
 * store; events of older generators keep the summary their RunFinished carried.
 */
class ServerMetricsReportTest extends RunCollectorFixture {
    private static final int N = 4;

    ServerMetricsReportTest() {
        super("mock://server-metrics");
    }

    private static RunEvent scrape(String runId, int k, double tMs, double running, double tokens) {
        Map<String, Double> samples = new LinkedHashMap<>();
        samples.put("requests_running", running);
        samples.put("generation_tokens", tokens);
        samples.put("not_in_the_table", 7.0);
        RunEvent e = TestRuns.envelope(runId, runId + "-scrape-" + k, new Heartbeat("http://127.0.0.1:8000/v1",
                "test-model", samples, tMs));
        e.setEmittedAtMs(1_785_585_600_000L + (long) tMs);
        return e;
    }

    private static ServerScraping scraping() {
        return ServerScraping.newBuilder().setUrl("http://127.0.0.1:8000/metrics").setIntervalMs(1000)
                .setFailedScrapes(1).setFirstError("GET http://127.0.0.1:8000/metrics: timed out")
                .setSeries(List.of(new ServerSeriesInfo("requests_running", "vllm:num_requests_running", "gauge"),
                        new ServerSeriesInfo("generation_tokens", "vllm:generation_tokens_total", "counter")))
                .build();
    }

    /** RunStarted, the baseline scrape, requests interleaved with three scrapes, RunFinished with server_scraping. */
    private static List<RunEvent> runWithScrapes(String runId) {
        List<RunEvent> run = new ArrayList<>(TestRuns.run(runId, N));
        RunEvent finished = run.remove(run.size() - 1);
        ((RunFinished) finished.getPayload()).setServerScraping(scraping());
        run.add(1, scrape(runId, 0, -12.5, 0, 100));
        run.add(3, scrape(runId, 1, 1000.25, 2, 150));
        run.add(5, scrape(runId, 2, 2000.5, 3, 200));
        run.add(scrape(runId, 3, 3000.75, 1, 260));
        run.add(finished);
        return run;
    }

    /** What {@code capstream replay} sends (cli Replays.rekey): new run id and event ids, origin replay:ID. */
    private static List<RunEvent> replayOf(List<RunEvent> original, String replayRunId) {
        List<RunEvent> out = new ArrayList<>();
        for (RunEvent e : original) {
            RunEvent copy = RunEvent.newBuilder(e).build();
            copy.setRunId(replayRunId);
            copy.setEventId(UUID.nameUUIDFromBytes((replayRunId + "|" + e.getEventId())
                    .getBytes(StandardCharsets.UTF_8)).toString());
            if (copy.getPayload() instanceof RunStarted s) {
                copy.setPayload(RunStarted.newBuilder(s).setOrigin(Origins.replayOf(e.getRunId())).build());
            }
            out.add(copy);
        }
        return out;
    }

    private BenchmarkReport single() {
        List<BenchmarkReport> all = reports();
        assertThat(all).as("reports published").hasSize(1);
        return all.get(0);
    }

    @Test
    void theReportsServerMetricsAreComputedFromTheScrapesInTheEvents() {
        feed(newInstance(), runWithScrapes("live-1"));
        ServerMetrics sm = single().getServerMetrics();
        assertThat(sm).as("server_metrics").isNotNull();
        assertThat(sm.getUrl()).isEqualTo("http://127.0.0.1:8000/metrics");
        assertThat(sm.getScrapes()).as("scrapes").isEqualTo(4);
        assertThat(sm.getFailedScrapes()).isEqualTo(1);
        assertThat(sm.getFirstError()).isEqualTo("GET http://127.0.0.1:8000/metrics: timed out");
        assertThat(sm.getIntervalMs()).isEqualTo(1000);
        assertThat(sm.getTMs()).as("t_ms from server_t_ms").containsExactly(-12.5, 1000.25, 2000.5, 3000.75);
        assertThat(sm.getSeries().keySet()).as("the table's series only").containsExactlyInAnyOrder(
                "requests_running", "generation_tokens");
        ServerSeries running = sm.getSeries().get("requests_running");
        assertThat(List.of(running.getMin(), running.getP50(), running.getMax(), running.getLast()))
                .as("min, nearest-rank p50 (2nd of 0,1,2,3), max, last").containsExactly(0.0, 1.0, 3.0, 1.0);
        assertThat(running.getIncrease()).as("a gauge").isNull();
        assertThat(running.getSource()).isEqualTo("vllm:num_requests_running");
        ServerSeries tokens = sm.getSeries().get("generation_tokens");
        assertThat(tokens.getIncrease()).as("a counter's last minus first").isEqualTo(160.0);
        assertThat(tokens.getValues()).isEqualTo(Arrays.asList(100.0, 150.0, 200.0, 260.0));
        assertThat(TestRuns.entries(events)).as("the run's events, scrapes included, deleted").isZero();
    }

    @Test
    void aReplayAndARunRestoredFromTheStoreGetTheSameServerMetrics() {
        List<RunEvent> live = runWithScrapes("live-2");
        feed(newInstance(), live);
        BenchmarkReport original = single();
        assertThat(original.getServerMetrics().getScrapes()).as("the live run's scrapes").isEqualTo(4);
        feed(newInstance(), replayOf(live, "live-2-replay"));
        BenchmarkReport replay = single();
        assertThat(replay.getProvenance().getReplayOf()).isEqualTo("live-2");
        assertThat(replay.getServerMetrics()).as("the replay's server_metrics").isEqualTo(original.getServerMetrics());
        // an instance that stops after the second scrape; the next one loads the stored events
        List<RunEvent> again = replayOf(live, "live-2-restored");
        feed(newInstance(), again.subList(0, 5));
        assertThat(reports()).as("nothing published yet").isEmpty();
        feed(newInstance(), again.subList(5, again.size()));
        assertThat(single().getServerMetrics()).as("restored from the store").isEqualTo(original.getServerMetrics());
    }

    @Test
    void aReSentScrapeCountsOnceAndPlainOrLateHeartbeatsAreIgnored() {
        List<RunEvent> run = runWithScrapes("live-3");
        RunEvent resent = run.get(3);
        run.add(4, resent);
        run.add(2, TestRuns.envelope("live-3", "plain-beat", new Heartbeat(null, null, Map.of(), null)));
        RunCollector c = newInstance();
        feed(c, run);
        BenchmarkReport r = single();
        assertThat(r.getServerMetrics().getScrapes()).as("the re-sent scrape once").isEqualTo(4);
        assertThat(r.getProvenance().getDuplicateEvents()).as("scrapes and heartbeats are not counted").isZero();
        feed(c, List.of(scrape("live-3", 9, 5000, 1, 300)));
        assertThat(reports()).as("a scrape after the report publishes nothing").isEmpty();
    }

    @Test
    void eventsOfAnOlderGeneratorKeepTheSummaryTheirRunFinishedCarried() {
        ServerMetrics carried = ServerMetrics.newBuilder().setUrl("http://old/metrics").setScrapes(2).setIntervalMs(1000)
                .setTMs(List.of(-3.0, 997.0)).setSeries(Map.of("requests_running", ServerSeries.newBuilder()
                        .setSource("vllm:num_requests_running").setSamples(2).setMin(1).setP50(1).setMax(2).setLast(2)
                        .setValues(List.of(1.0, 2.0)).build())).build();
        List<RunEvent> run = new ArrayList<>(TestRuns.run("old-1", N));
        ((RunFinished) run.get(run.size() - 1).getPayload()).setServerMetrics(carried);
        // an older generator's scrape heartbeat: samples, no server_t_ms, and no server_scraping in RunFinished
        run.add(1, TestRuns.envelope("old-1", "old-scrape", new Heartbeat("http://old/v1", "test-model",
                Map.of("requests_running", 5.0), null)));
        feed(newInstance(), run);
        assertThat(single().getServerMetrics()).as("the carried summary").isEqualTo(carried);
        feed(newInstance(), TestRuns.run("plain-1", N));
        assertThat(single().getServerMetrics()).as("not scraped").isNull();
    }
}
