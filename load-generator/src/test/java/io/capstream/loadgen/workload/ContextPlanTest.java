package io.capstream.loadgen.workload;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import org.junit.jupiter.api.Test;

class ContextPlanTest {
    @Test
    void sampledSeedZero() {
        ContextPlan p = ContextPlan.build(12, 0, 0, null);
        assertArrayEquals(new int[] {65536, 65536, 32768, 32768, 32768, 32768, 65536, 32768, 32768, 32768, 131072, 32768},
                p.toArray());
    }

    @Test
    void sampledSeedOne() {
        assertArrayEquals(new int[] {16000, 65536, 65536, 32768, 32768, 32768, 65536, 65536},
                ContextPlan.build(8, 0, 1, null).toArray());
    }

    @Test
    void clampedDistribution() {
        ContextPlan p = ContextPlan.build(12, 0, 0, 131072 - 256 - 1024);
        assertEquals(Map.of("65536", 3, "32768", 8, "129792", 1), p.distribution());
        assertEquals("[129792, 32768, 65536]", p.distribution().keySet().toString());
        assertEquals(129792, p.cap());
    }

    @Test
    void fixedContextIsClampedAndDoesNotConsumeGenerator() {
        ContextPlan p = ContextPlan.build(3, 8192, 0, 4000);
        assertArrayEquals(new int[] {4000, 4000, 4000}, p.toArray());
        assertEquals(Map.of("4000", 3), p.distribution());
        assertArrayEquals(new int[] {8192, 8192}, ContextPlan.build(2, 8192, 5, null).toArray());
    }

    @Test
    void bucketBoundsAreInclusive() {
        assertEquals(16000, ContextPlan.bucket(0.218));
        assertEquals(32768, ContextPlan.bucket(0.2180001));
        assertEquals(32768, ContextPlan.bucket(0.602));
        assertEquals(65536, ContextPlan.bucket(0.906));
        assertEquals(131072, ContextPlan.bucket(0.995));
        assertEquals(262144, ContextPlan.bucket(0.9999));
        assertEquals(16000, ContextPlan.bucket(0.0));
    }
}
