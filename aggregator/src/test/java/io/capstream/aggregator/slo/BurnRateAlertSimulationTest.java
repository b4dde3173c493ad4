package io.capstream.aggregator.slo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.capstream.schemas.avro.SloBreach;
import io.capstream.schemas.avro.SloState;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Issue 32: burn-rate alerts on simulated 1-minute windows of 40 requests (too few for a p95 interval): a healthy
 * service stays quiet; a 2&times; TTFT slowdown pages within the documented time and resolves soon after it ends.
 */
class BurnRateAlertSimulationTest {
    private static final double OBJECTIVE = 500;

    @Test
    void aTwofoldSlowdownPagesWithinTwentyMinutesAndResolvesWhenItEnds() {
        // TTFT lognormal with sigma 0.3, p95 400 ms: 0.84% of requests above 500 ms (burn rate 0.84 at a 99% target);
        // twice as slow: 47% above (burn rate 47), so the 1 h window reaches 14.4 after about 18 minutes
        SimulatedWindows sim = new SimulatedWindows(7, 0.3);
        double healthy = sim.median(400);
        List<SloBreach> all = new ArrayList<>();
        List<SloBreach> healthyAlerts;
        int slowFrom = 8 * 60;
        int slowTo = slowFrom + 90;
        try (SloTopologyHarness h = new SloTopologyHarness(List.of("ttft_p95_ms<=500"),
                c -> c.withBurnRate(BurnRatePolicy.workbook(0.99)))) {
            for (int i = 0; i < slowFrom; i++) {
                h.send(sim.window(i, 40, healthy, OBJECTIVE));
            }
            healthyAlerts = h.alerts();
            for (int i = slowFrom; i < slowTo + 30; i++) {
                h.send(sim.window(i, 40, i < slowTo ? 2 * healthy : healthy, OBJECTIVE));
                h.alerts().forEach(a -> all.add(a));
            }
        }
        assertThat(healthyAlerts).as("8 healthy hours (burn rate about 0.84): no alert").isEmpty();
        SloBreach page = all.stream().filter(a -> "page-1h-5m".equals(a.getRule()) && a.getState() == SloState.BREACH)
                .findFirst().orElseThrow(() -> new AssertionError("no page-1h-5m alert: " + all));
        long minutes = (page.getWindowEndMs() - slowFrom * SimulatedWindows.WINDOW_MS) / 60_000;
        assertThat(minutes).as("minutes from the slowdown to the page (about 18 expected)").isBetween(14L, 22L);
        assertThat(page.getDecision()).isEqualTo("burn_rate");
        assertThat(page.getSeverity()).isEqualTo("page");
        assertThat(page.getBurnRate()).as("long-window burn rate").isGreaterThanOrEqualTo(14.4);
        assertThat(page.getBurnRateShort()).as("short-window burn rate").isGreaterThanOrEqualTo(14.4);
        assertThat(page.getLongWindowMs()).isEqualTo(3_600_000L);
        assertThat(page.getShortWindowMs()).isEqualTo(300_000L);
        assertThat(page.getSlo()).isEqualTo("ttft_p95_ms<=500, no failure @ 99%");
        assertThat(page.getThreshold()).isCloseTo(14.4, within(1e-9));
        SloBreach resolved = all.stream().filter(a -> "page-1h-5m".equals(a.getRule())
                && a.getState() == SloState.RECOVERED).findFirst().orElseThrow(() -> new AssertionError("not resolved: " + all));
        long after = (resolved.getWindowEndMs() - slowTo * SimulatedWindows.WINDOW_MS) / 60_000;
        assertThat(after).as("minutes from the end of the slowdown to the resolution (short window 5 min)")
                .isBetween(1L, 5L);
    }
}
