package io.capstream.loadgen.arrival;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ArrivalScheduleTest {
    @Test
    void constantIsEvenlySpaced() {
        ArrivalSchedule s = new ArrivalSchedule(ArrivalMode.CONSTANT, 4.0, 0);
        assertEquals(0L, s.next());
        assertEquals(250_000_000L, s.next());
        assertEquals(500_000_000L, s.next());
        assertEquals(40, ArrivalSchedule.countWithin(ArrivalMode.CONSTANT, 4.0, 0, 10_000_000_000L, 1000));
        assertEquals(7, ArrivalSchedule.countWithin(ArrivalMode.CONSTANT, 4.0, 0, 10_000_000_000L, 7));
    }

    @Test
    void poissonIsSeededAndHasTheRightMeanRate() {
        ArrivalSchedule a = new ArrivalSchedule(ArrivalMode.POISSON, 100.0, 42);
        ArrivalSchedule b = new ArrivalSchedule(ArrivalMode.POISSON, 100.0, 42);
        long last = -1;
        for (int i = 0; i < 20_000; i++) {
            long t = a.next();
            assertEquals(t, b.next());
            assertTrue(t >= last);
            last = t;
        }
        // 20,000 arrivals at 100/s take about 200 s (the sample mean is within 3% here)
        assertTrue(Math.abs(last / 1e9 - 200.0) < 6.0, "last arrival at " + last / 1e9 + " s");
        assertEquals(0L, new ArrivalSchedule(ArrivalMode.POISSON, 100.0, 1).next());
        long other = new ArrivalSchedule(ArrivalMode.POISSON, 100.0, 43).next();
        assertEquals(0L, other);
    }

    @Test
    void closedLoopHasNoSchedule() {
        assertThrows(IllegalArgumentException.class, () -> new ArrivalSchedule(ArrivalMode.CLOSED, 1.0, 0));
    }
}
