package io.capstream.cli.browser;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.capstream.cli.CapstreamMain;
import io.capstream.schemas.artifact.ArtifactJson;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code capstream run --html FILE} on the embedded stack and the built-in simulated engine, with
 * injected HTTP 500 answers, opened in headless Chromium: no console error, nothing loaded from the
 * network, every chart (CDFs, timeline, throughput and in-flight, ITL histogram, error breakdown)
 * drawn with data points. Skipped where Chromium is not installed.
 */
class RunPageBrowserIT {
    @RegisterExtension
    static final ChromiumExtension CHROMIUM = new ChromiumExtension();

    @TempDir
    Path tmp;

    @Test
    @Timeout(120)
    void aRunPageWithFailuresDrawsEveryChartOffline() throws Exception {
        Path report = tmp.resolve("browser-run.json");
        Path html = tmp.resolve("browser-run.html");
        int code = CapstreamMain.execute("run", "--run-id", "browser-run", "--requests", "48", "--concurrency", "4",
                "--ctx-tokens", "256", "--max-tokens", "16", "--shared-prefix-tokens", "0", "--client-warmup", "0",
                "--sim-error-rate", "0.15", "--sim-seed", "7", "--output", report.toString(), "--html", html.toString());
        JsonNode artifact = ArtifactJson.read(report);
        assertTrue(artifact.path("failed").asInt() > 0, "the sim injected failures: " + artifact.path("failed"));
        assertEquals(48, artifact.path("completed").asInt() + artifact.path("failed").asInt());
        assertEquals(1, code, "exit 1: some requests failed");
        PageAssertions.assertSelfContainedFile(html);

        PageCheck check = CHROMIUM.browser().open(html.toUri(), "run-page");

        PageAssertions.assertDrawnOffline(check, 6);
        assertTrue(check.drawnCharts() >= 6, check.describe());
        // the sim serves /metrics: --server-metrics auto scraped it, and its charts are drawn too
        JsonNode sm = artifact.path("capstream").path("server_metrics");
        assertTrue(sm.path("scrapes").asInt() >= 2, "scrapes: " + sm);
        double running = sm.path("series").path("requests_running").path("max").asDouble();
        assertTrue(running >= 1 && running <= 4, "at most the run's 4 streams at once: " + running);
        for (String id : List.of("server-queue", "server-token-rate")) {
            assertTrue(check.charts().stream().anyMatch(c -> c.id().equals(id) && c.rendered()),
                    id + " drew: " + check.describe());
        }
        assertTrue(check.html().contains("browser-run"), "the page names its run");
    }
}
