package io.capstream.loadgen.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.capstream.loadgen.arrival.ArrivalMode;
import io.capstream.loadgen.arrival.ArrivalSchedule;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class PlanShareTest {

    @Test
    void sharesPartitionTheIndices() {
        int n = 10;
        int total = 0;
        List<Integer> all = new ArrayList<>();
        for (int k = 0; k < 3; k++) {
            PlanShare s = new PlanShare(k, 3);
            total += s.count(n);
            for (int j = 0; j < s.count(n); j++) {
                int i = s.globalIndex(j);
                assertTrue(s.owns(i));
                assertFalse(new PlanShare((k + 1) % 3, 3).owns(i));
                all.add(i);
            }
        }
        assertEquals(n, total);
        all.sort(null);
        assertEquals(List.of(0, 1, 2, 3, 4, 5, 6, 7, 8, 9), all);
        assertEquals(4, new PlanShare(0, 3).count(10));
        assertEquals(3, new PlanShare(1, 3).count(10));
        assertEquals(3, new PlanShare(2, 3).count(10));
        assertEquals(List.of(1, 4, 7), List.of(new PlanShare(1, 3).globalIndex(0), new PlanShare(1, 3).globalIndex(1),
                new PlanShare(1, 3).globalIndex(2)));
        assertEquals(0, new PlanShare(2, 3).count(2));
        assertEquals(1, new PlanShare(1, 3).count(2));
        assertEquals(300, new PlanShare(0, 1).count(300));
    }

    @Test
    void concurrencySplitGivesTheRemainderToTheLowestShares() {
        assertEquals(List.of(4, 3, 3), List.of(new PlanShare(0, 3).concurrency(10), new PlanShare(1, 3).concurrency(10),
                new PlanShare(2, 3).concurrency(10)));
        assertEquals(List.of(2, 2), List.of(new PlanShare(0, 2).concurrency(4), new PlanShare(1, 2).concurrency(4)));
        assertEquals(List.of(1, 1, 0), List.of(new PlanShare(0, 3).concurrency(2), new PlanShare(1, 3).concurrency(2),
                new PlanShare(2, 3).concurrency(2)));
    }

    @Test
    void scheduleOfAShareIsTheGlobalScheduleAtItsIndices() {
        for (ArrivalMode mode : List.of(ArrivalMode.CONSTANT, ArrivalMode.POISSON)) {
            ArrivalSchedule global = new ArrivalSchedule(mode, 7.5, 42);
            long[] offsets = new long[30];
            for (int i = 0; i < offsets.length; i++) {
                offsets[i] = global.next();
            }
            for (int k = 0; k < 3; k++) {
                PlanShare s = new PlanShare(k, 3);
                ArrivalSchedule mine = s.schedule(mode, 7.5, 42);
                for (int j = 0; j < s.count(offsets.length); j++) {
                    assertEquals(offsets[s.globalIndex(j)], mine.next(), mode + " share " + k + " request " + j);
                }
            }
        }
        // constant: request k at k / rate
        ArrivalSchedule second = new PlanShare(1, 2).schedule(ArrivalMode.CONSTANT, 10, 0);
        assertEquals(100_000_000L, second.next());
        assertEquals(300_000_000L, second.next());
    }

    @Test
    void rejectsAShareOutsideTheRange() {
        assertThrows(IllegalArgumentException.class, () -> new PlanShare(3, 3));
        assertThrows(IllegalArgumentException.class, () -> new PlanShare(-1, 3));
        assertThrows(IllegalArgumentException.class, () -> new PlanShare(0, 0));
    }
}
