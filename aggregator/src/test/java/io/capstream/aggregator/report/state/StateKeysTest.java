package io.capstream.aggregator.report.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class StateKeysTest {
    @Test
    void requestKeysAreZeroPaddedToTenDigitsSoThatTheyScanInIndexOrder() {
        assertEquals("run-1|R|0000000000", StateKeys.request("run-1", 0));
        assertEquals("run-1|R|0000000007", StateKeys.request("run-1", 7));
        assertEquals("run-1|R|0000001000", StateKeys.request("run-1", 1000));
        assertEquals("run-1|R|2147483647", StateKeys.request("run-1", Integer.MAX_VALUE));
        assertEquals("run-1|R|--3", StateKeys.request("run-1", -3));
        for (int i : new int[] {0, 1, 9, 10, 99, 100, 999_999, 123_456_789}) {
            assertEquals(String.format("run|R|%010d", i), StateKeys.request("run", i));
            assertTrue(StateKeys.request("run", i).compareTo(StateKeys.request("run", i + 1)) < 0);
            assertThat(StateKeys.request("run", i)).startsWith(StateKeys.requestPrefix("run"));
            assertThat(StateKeys.request("run", i)).startsWith(StateKeys.runPrefix("run"));
        }
        assertEquals("run|S", StateKeys.started("run"));
        assertEquals("run|F|w1", StateKeys.finished("run", "w1"));
    }
}
