package io.capstream.aggregator.report.calc;

import static org.assertj.core.api.Assertions.assertThat;

import io.capstream.schemas.avro.Distribution;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Issue 32: every report Distribution carries the 95% interval of each percentile, or the reason it has none. */
class DistributionsTest {
    /** 1..n in a shuffled order, so that the interval's ends are the ranks themselves. */
    private static double[] oneTo(int n) {
        return IntStream.rangeClosed(1, n).map(i -> n + 1 - i).asDoubleStream().toArray();
    }

    @Test
    void twoHundredValuesHaveAnIntervalForP50ToP95ButNotP99() {
        Distribution d = Distributions.of(oneTo(200));
        assertThat(d.getP95()).as("p95").isEqualTo(190.0);
        // ranks from QuantileInterval.ranks(200, 0.95, 0.95); bench/intervals/check.py gives the same ranks 184..197
        assertThat(d.getP95Ci()).as("p95_ci of 1..200").containsExactly(184.0, 197.0);
        assertThat(d.getP50Ci()).as("p50_ci of 1..200").containsExactly(86.0, 115.0);
        assertThat(d.getP90Ci()).as("p90_ci of 1..200").isNotNull();
        assertThat(d.getP99Ci()).as("p99_ci of 200 values").isNull();
        assertThat(d.getCiUnavailable()).as("ci_unavailable")
                .containsExactly(java.util.Map.entry("p99",
                        "200 values are too few for a 95% interval of p99 (needs at least 368)"));
    }

    @Test
    void theIntervalHoldsItsPercentileAndIsMadeOfValues() {
        double[] v = IntStream.range(0, 1000).mapToDouble(i -> Math.exp(Math.sin(i * 7.3) * 2)).toArray();
        Distribution d = Distributions.of(v);
        for (var e : List.of(List.of(d.getP50(), d.getP50Ci()), List.of(d.getP90(), d.getP90Ci()),
                List.of(d.getP95(), d.getP95Ci()), List.of(d.getP99(), d.getP99Ci()))) {
            double p = (Double) e.get(0);
            @SuppressWarnings("unchecked")
            List<Double> ci = (List<Double>) e.get(1);
            assertThat(ci).as("interval of %s", p).hasSize(2);
            assertThat(ci.get(0)).as("low of %s", ci).isLessThanOrEqualTo(p);
            assertThat(ci.get(1)).as("high of %s", ci).isGreaterThanOrEqualTo(p);
            assertThat(v).as("values").contains(ci.get(0), ci.get(1));
        }
        assertThat(d.getCiUnavailable()).as("ci_unavailable with 1000 values").isNull();
    }

    @Test
    void noValuesNoIntervalsAndNoReasons() {
        Distribution d = Distributions.of(new double[0]);
        assertThat(d.getP50Ci()).as("p50_ci").isNull();
        assertThat(d.getCiUnavailable()).as("ci_unavailable of an empty distribution").isNull();
    }

    @Test
    void fiveValuesHaveNoIntervalAtAll() {
        Distribution d = Distributions.of(oneTo(5));
        assertThat(d.getCiUnavailable()).as("ci_unavailable of 5 values").containsOnlyKeys("p50", "p90", "p95", "p99");
        assertThat(d.getCiUnavailable().get("p50")).as("p50 reason")
                .isEqualTo("5 values are too few for a 95% interval of p50 (needs at least 6)");
    }
}
