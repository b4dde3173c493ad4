package io.capstream.cli.browser;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.capstream.cli.CapstreamMain;
import io.capstream.schemas.artifact.ArtifactJson;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code capstream sweep --concurrency 1,2,4 --slo ttft_p95_ms<=300 --html FILE} on the embedded
 * stack and the built-in simulated engine, opened in headless Chromium: no console error, nothing
 * loaded from the network, the capacity curve charts drawn with data points. Skipped where Chromium
 * is not installed.
 */
class SweepPageBrowserIT {
    @RegisterExtension
    static final ChromiumExtension CHROMIUM = new ChromiumExtension();

    @TempDir
    Path tmp;

    @Test
    @Timeout(300)
    void aSweepPageDrawsItsCapacityCurveOffline() throws Exception {
        Path dir = tmp.resolve("sweep");
        Path html = tmp.resolve("browser-sweep.html");
        int code = CapstreamMain.execute("sweep", "--sweep-id", "browser-sweep", "--concurrency", "1,2,4",
                "--requests", "8", "--ctx-tokens", "256", "--max-tokens", "16", "--shared-prefix-tokens", "0",
                "--sim-slots", "8", "--client-warmup", "0", "--slo", "ttft_p95_ms<=300", "--output-dir", dir.toString(),
                "--html", html.toString());
        assertEquals(0, code, "every step has its report and the curve arrived");
        JsonNode sweep = ArtifactJson.read(dir.resolve("sweep.json"));
        assertEquals(3, sweep.path("points").size(), sweep.toString());
        PageAssertions.assertSelfContainedFile(html);

        PageCheck check = CHROMIUM.browser().open(html.toUri(), "sweep-page");

        PageAssertions.assertDrawnOffline(check, 2);
        assertThat(check.html()).as("the page names its sweep").contains("browser-sweep");

        // issue 26: legends overflowed their cards, titles were clipped or off the card (the ITL chart's out of
        // sight) and the page scrolled sideways, at both widths
        for (int width : new int[] {1400, 1920}) {
            CHROMIUM.browser().viewport(width, 1000);
            PageCheck wide = CHROMIUM.browser().open(html.toUri(), "sweep-page-" + width);
            PageAssertions.assertDrawnOffline(wide, 4);
            assertThat(wide.charts()).as(wide.describe()).anyMatch(c -> c.id().equals("itl-curve"));
            PageAssertions.assertFitsViewport(CHROMIUM.browser(), wide);
        }
    }
}
