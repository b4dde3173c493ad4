package io.capstream.aggregator.report.calc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class NearestRankTest {
    @Test
    void indexIsCeilOfRankMinusOne() {
        assertEquals(4, NearestRank.index(10, 50));   // seed: 5th smallest
        assertEquals(9, NearestRank.index(10, 95));   // seed: maximum
        assertEquals(0, NearestRank.index(1, 50));
        assertEquals(0, NearestRank.index(1, 95));
        assertEquals(0, NearestRank.index(2, 50));    // even n: lower middle
        assertEquals(18, NearestRank.index(19, 95));  // n < 20: maximum
        assertEquals(18, NearestRank.index(20, 95));  // n = 20: 19th value (ceil(19.0) - 1)
        assertEquals(121, NearestRank.index(128, 95));
        assertEquals(63, NearestRank.index(128, 50));
    }

    @Test
    void percentileReturnsASampleUnchangedAndNullWhenEmpty() {
        double[] e2e = {692.0715000014752, 747.0614000922069, 683.8149999966845, 641.6056000161916,
            641.2627999670804, 664.3758000573143, 705.0340999849141, 663.6065000202507, 706.3304000766948,
            643.1868999497965};
        assertEquals(664.3758000573143, NearestRank.percentile(e2e, 50));
        assertEquals(747.0614000922069, NearestRank.percentile(e2e, 95));
        assertEquals(692.0715000014752, e2e[0], "input not reordered");
        assertNull(NearestRank.percentile(new double[0], 50));
        assertNull(NearestRank.percentile(Arrays.asList((Double) null, null), 95));
        assertEquals(3.0, NearestRank.percentile(List.of(5, 3, 1, 4), 50));
    }
}
