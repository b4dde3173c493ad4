package io.capstream.schemas.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class NearestRankTest {
    @Test
    void indexIsCeilOfRankMinusOne() {
        assertThat(NearestRank.index(10, 50)).as("seed: 5th smallest").isEqualTo(4);
        assertThat(NearestRank.index(10, 95)).as("seed: maximum").isEqualTo(9);
        assertThat(NearestRank.index(1, 50)).as("p50 of 1").isZero();
        assertThat(NearestRank.index(1, 95)).as("p95 of 1").isZero();
        assertThat(NearestRank.index(1, 99)).as("p99 of 1").isZero();
        assertThat(NearestRank.index(2, 50)).as("even n: lower middle").isZero();
        assertThat(NearestRank.index(19, 95)).as("n < 20: maximum").isEqualTo(18);
        assertThat(NearestRank.index(20, 95)).as("n = 20: 19th value (ceil(19.0) - 1)").isEqualTo(18);
        assertThat(NearestRank.index(21, 95)).as("n = 21: ceil(19.95) = 20th value").isEqualTo(19);
        assertThat(NearestRank.index(100, 99)).as("p99 of 100: 99th value").isEqualTo(98);
        assertThat(NearestRank.index(100, 100)).as("p100: the maximum").isEqualTo(99);
        assertThat(NearestRank.index(128, 95)).isEqualTo(121);
        assertThat(NearestRank.index(128, 50)).isEqualTo(63);
    }

    @Test
    void rankIsExactWhereAFloatingCeilWouldRoundUp() {
        // the old copies computed Math.ceil(p / 100.0 * n): for these the floating product lies just above the
        // integer, and the ceiling then picks the value above the nearest rank
        assertThat(Math.ceil(7 / 100.0 * 100)).as("the floating pitfall itself").isEqualTo(8.0);
        assertThat(NearestRank.rank(100, 7)).as("p7 of 100").isEqualTo(7);
        assertThat(Math.ceil(28 / 100.0 * 25)).as("the floating pitfall itself").isEqualTo(8.0);
        assertThat(NearestRank.rank(25, 28)).as("p28 of 25").isEqualTo(7);
        for (int n = 1; n <= 1000; n++) {
            for (int q = 1; q <= 100; q++) {
                long expected = Math.max(1, (q * n + 99) / 100);
                assertThat(NearestRank.rank(n, q)).as("rank of p%d of %d", q, n).isEqualTo(expected);
            }
        }
        assertThat(NearestRank.rank(10_000_000_000L, 99)).as("counts beyond int").isEqualTo(9_900_000_000L);
    }

    @Test
    void percentileReturnsASampleUnchangedAndNullWhenEmpty() {
        double[] e2e = {692.0715000014752, 747.0614000922069, 683.8149999966845, 641.6056000161916,
            641.2627999670804, 664.3758000573143, 705.0340999849141, 663.6065000202507, 706.3304000766948,
            643.1868999497965};
        assertThat(NearestRank.percentile(e2e, 50)).as("spec seed e2e p50").isEqualTo(664.3758000573143);
        assertThat(NearestRank.percentile(e2e, 95)).as("spec seed e2e p95").isEqualTo(747.0614000922069);
        assertThat(e2e[0]).as("input not reordered").isEqualTo(692.0715000014752);
        assertThat(NearestRank.percentile(new double[0], 50)).as("empty").isNull();
        assertThat(NearestRank.percentile(Arrays.asList((Double) null, null), 95)).as("only nulls").isNull();
        assertThat(NearestRank.percentile(List.of(5, 3, 1, 4), 50)).as("ints, even n").isEqualTo(3.0);
        assertThat(NearestRank.percentile(new double[] {42.5}, 50)).as("p50 of 1").isEqualTo(42.5);
    }

    @Test
    void ofSortedReadsTheAscendingValuesAndRefusesNone() {
        double[] sorted = new double[20];
        for (int i = 0; i < sorted.length; i++) {
            sorted[i] = i + 1;
        }
        assertThat(NearestRank.ofSorted(sorted, 95)).as("p95 of 1..20").isEqualTo(19.0);
        assertThat(NearestRank.ofSorted(sorted, 50)).as("p50 of 1..20").isEqualTo(10.0);
        assertThatThrownBy(() -> NearestRank.ofSorted(new double[0], 50)).isInstanceOf(IllegalArgumentException.class);
    }
}
