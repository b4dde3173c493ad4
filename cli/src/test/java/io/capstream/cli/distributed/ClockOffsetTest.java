package io.capstream.cli.distributed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class ClockOffsetTest {

    @Test
    void offsetIsTheMidpointMinusTheBrokerTime() {
        // local clock 250 ms ahead: sent at local 1000, acknowledged at local 1010, appended at broker 755
        ClockOffset o = ClockOffset.ofProbe(1000, 1010, 755);
        assertEquals(250.0, o.offsetMs());
        assertEquals(5.0, o.uncertaintyMs());
        assertEquals(10_250L, o.toLocal(10_000));
        assertEquals(10_000L, o.toBroker(10_250));
        assertTrue(o.known());
        assertEquals(-40.5, ClockOffset.ofProbe(2000, 2001, 2041).offsetMs());
    }

    @Test
    void bestIsTheProbeWithTheSmallestRoundTrip() {
        ClockOffset slow = ClockOffset.ofProbe(0, 40, 30);
        ClockOffset fast = ClockOffset.ofProbe(100, 102, 90);
        ClockOffset mid = ClockOffset.ofProbe(200, 210, 180);
        assertSame(fast, ClockOffset.best(List.of(slow, fast, mid)));
        assertEquals(11.0, ClockOffset.best(List.of(slow, fast, mid)).offsetMs());
        assertSame(ClockOffset.UNKNOWN, ClockOffset.best(List.of()));
        assertFalse(ClockOffset.UNKNOWN.known());
        assertEquals(5_000L, ClockOffset.UNKNOWN.toLocal(5_000));
    }

    @Test
    void rejectsAnAcknowledgementBeforeTheSend() {
        assertThrows(IllegalArgumentException.class, () -> ClockOffset.ofProbe(10, 9, 0));
    }
}
