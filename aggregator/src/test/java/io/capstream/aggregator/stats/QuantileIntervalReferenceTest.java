package io.capstream.aggregator.stats;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Issue 32, deliverable 5: QuantileInterval's ranks against the independent computation of
 * {@code bench/intervals/check.py --ranks} (exact binomial CDF in integer arithmetic, no Hipparchus); the expected
 * ranks below are copied from that script's output (bench/intervals/README.md). The script also compares the report's
 * and the windows' intervals on samples of three distributions and simulates their coverage.
 */
class QuantileIntervalReferenceTest {
    @ParameterizedTest(name = "n={0} p{1}: ranks {2}..{3}")
    @CsvSource({
        "20, 50, 6, 15",
        "100, 50, 40, 61",
        "100, 95, 90, 100",
        "200, 50, 86, 115",
        "200, 95, 184, 197",
        "400, 99, 392, 400",
        "1000, 99, 983, 997",
        "5000, 95, 4719, 4781",
    })
    void ranksAgreeWithTheIndependentScript(long n, int percentile, long lower, long upper) {
        QuantileInterval.Ranks r = QuantileInterval.ranks(n, percentile / 100.0, 0.95);
        assertThat(r.reason()).as("reason for n=%d p%d", n, percentile).isNull();
        assertThat(new long[] {r.lower(), r.upper()}).as("ranks for n=%d p%d (check.py: %d..%d)", n, percentile,
                lower, upper).containsExactly(lower, upper);
    }

    @ParameterizedTest(name = "p{0}: at least {1} values")
    @CsvSource({"50, 6", "90, 36", "95, 72", "99, 368"})
    void minimumSamplesAgreeWithTheIndependentScript(int percentile, long minimum) {
        assertThat(QuantileInterval.minimumSample(percentile / 100.0, 0.95)).as("minimum n for p%d", percentile)
                .isEqualTo(minimum);
        assertThat(QuantileInterval.ranks(minimum - 1, percentile / 100.0, 0.95).reason()).as("reason for n=%d", minimum - 1)
                .endsWith("(needs at least " + minimum + ")");
        assertThat(QuantileInterval.ranks(minimum, percentile / 100.0, 0.95).reason()).as("reason for n=%d", minimum).isNull();
    }
}
