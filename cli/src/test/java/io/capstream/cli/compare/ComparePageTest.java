package io.capstream.cli.compare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.capstream.aggregator.html.Chart;
import org.junit.jupiter.api.Test;

/** The overlaid CDFs of {@link ComparePage}, and the page's parts. */
class ComparePageTest {
    @Test
    void bothCdfsShareTheUnionOfTheValuesAsX() {
        Chart c = ComparePage.cdfChart("ttft-cdf", "TTFT", "TTFT (ms)", new double[] {30, 10}, new double[] {20, 10, 40, 40},
                "A a", "B b");
        assertEquals(Chart.Kind.STEP, c.kind());
        assertArrayEquals(new double[] {10, 20, 30, 40}, c.x());
        assertEquals("A a", c.series().get(0).label());
        assertArrayEquals(new double[] {0.5, 0.5, 1, 1}, c.series().get(0).y());
        assertArrayEquals(new double[] {0.25, 0.5, 0.5, 1}, c.series().get(1).y());
    }

    @Test
    void anEmptySampleIsAGapAndTwoAreNoChart() {
        Chart c = ComparePage.cdfChart("e2e-cdf", "E2E", "E2E (ms)", new double[] {5}, new double[0], "A", "B");
        assertArrayEquals(new double[] {1}, c.series().get(0).y());
        assertTrue(Double.isNaN(c.series().get(1).y()[0]));
        assertNull(ComparePage.cdfChart("x", "X", "x", new double[0], new double[0], "A", "B"));
    }

    @Test
    void thePageHasBothChartsAndTheTitle() {
        var a = Artifacts.report("run-a", 100, 4, null);
        var b = Artifacts.report("run-b", 120, 8, null);
        String html = ComparePage.render(RunComparison.of(a, b), a, b);
        assertThat(html).contains("data-chart=\"ttft-cdf\"");
        assertThat(html).contains("data-chart=\"e2e-cdf\"");
        assertThat(html).contains("run-a", "run-b");
    }
}
