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

    @Test
    void batchKeysAreZeroPaddedSoThatTheyScanInTheOrderTheyWereWritten() {
        assertThat(StateKeys.batch("run-1", 0)).as("first batch key").isEqualTo("run-1|B|0000000000");
        assertThat(StateKeys.batch("run-1", 12)).as("batch 12's key").isEqualTo("run-1|B|0000000012");
        for (int i : new int[] {0, 9, 10, 999, 123_456_789}) {
            assertThat(StateKeys.batch("run", i)).as("batch %d's key", i).startsWith(StateKeys.batchPrefix("run"))
                    .startsWith(StateKeys.runPrefix("run")).isLessThan(StateKeys.batch("run", i + 1));
            assertThat(StateKeys.batchSequence("run", StateKeys.batch("run", i))).as("sequence of batch %d", i)
                    .isEqualTo(i);
        }
        assertThat(StateKeys.batchSequence("run", "run|R|0000000001")).as("sequence of a request key").isEqualTo(-1);
        assertThat(StateKeys.batchSequence("run", "run|B|12")).as("sequence of a short key").isEqualTo(-1);
        assertThat(StateKeys.batchSequence("run", "run|B|00000000x1")).as("sequence of a key with a letter")
                .isEqualTo(-1);
    }
}
