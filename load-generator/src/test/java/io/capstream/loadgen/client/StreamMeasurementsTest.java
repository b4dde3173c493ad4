package io.capstream.loadgen.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The measurements on its own, fed decoded chunks at given times. */
class StreamMeasurementsTest {
    private final StreamMeasurements m = new StreamMeasurements(1_000);

    private static DecodedChunk chunk(int content, int reasoning, String finish) {
        DecodedChunk c = new DecodedChunk();
        for (int i = 0; i < content; i++) {
            c.contentDelta();
        }
        for (int i = 0; i < reasoning; i++) {
            c.reasoningDelta();
        }
        if (finish != null) {
            c.finishReason(finish);
        }
        return c;
    }

    @Test
    void nothingMeasuredYet() {
        assertEquals(-1, m.ttfoNs());
        assertEquals(-1, m.ttftNs());
        assertEquals(-1, m.maxGapNs());
        assertEquals(0, m.dataLines());
        assertEquals(0, m.contentChunks());
        assertFalse(m.usageSeen());
        assertEquals(-1, m.promptTokens());
        assertEquals(-1, m.completionTokens());
        assertEquals(-1, m.cachedTokens());
        assertNull(m.finishReason());
    }

    @Test
    void firstOutputAndFirstContentAreStampedOnceRelativeToT0() {
        m.output(chunk(0, 0, null), 1_050);
        assertEquals(-1, m.ttfoNs(), "a chunk without deltas stamps nothing");
        m.output(chunk(0, 1, null), 1_100);
        assertEquals(100, m.ttfoNs());
        assertEquals(-1, m.ttftNs(), "reasoning is output, not content");
        m.output(chunk(2, 1, null), 1_300);
        m.output(chunk(1, 0, "stop"), 1_400);
        m.output(chunk(0, 0, null), 1_500);
        assertEquals(100, m.ttfoNs());
        assertEquals(300, m.ttftNs());
        assertEquals(3, m.contentChunks());
        assertEquals(2, m.reasoningChunks());
        assertEquals("stop", m.finishReason(), "a chunk without finish_reason keeps the last one");
    }

    @Test
    void lastTruthyUsageWins() {
        DecodedChunk u = new DecodedChunk();
        u.usage(12, 2, 8);
        m.usage(u);
        m.usage(new DecodedChunk());
        assertTrue(m.usageSeen());
        assertEquals(12, m.promptTokens());
        assertEquals(2, m.completionTokens());
        assertEquals(8, m.cachedTokens());
        DecodedChunk v = new DecodedChunk();
        v.usage(7, -1, -1);
        m.usage(v);
        assertEquals(7, m.promptTokens());
        assertEquals(-1, m.completionTokens());
        assertEquals(-1, m.cachedTokens());
    }

    @Test
    void gapIsTheLargestBetweenConsecutiveDataLines() {
        m.dataLine(1_100);
        assertEquals(0, m.maxGapNs(), "one line: no gap yet, but measured");
        m.dataLine(5_100);
        m.dataLine(6_000);
        m.dataLine(6_100);
        assertEquals(4_000, m.maxGapNs());
        assertEquals(4, m.dataLines());
    }

    @Test
    void outputChunkGapsAreTheMicrosecondsBetweenConsecutiveOutputChunks() {
        assertEquals(0, m.outputChunkGaps().size(), "no output yet");
        m.output(chunk(0, 1, null), 2_000_000);
        assertEquals(0, m.outputChunkGaps().size(), "one output chunk: no gap");
        m.output(chunk(0, 0, null), 2_500_000);
        m.output(chunk(1, 0, null), 12_000_999);
        m.output(chunk(2, 1, null), 12_500_000);
        OutputChunkGaps g = m.outputChunkGaps();
        assertEquals(List.of(10_000, 500), g.toList(),
                "a chunk without deltas is no output chunk; the arrival times after t0 (1,000 ns) are cut to whole µs"
                        + " before the difference, so the gaps add up to the last minus the first exactly");
        assertEquals(0, g.dropped());
    }

    @Test
    void gapsBeyondTheCapAreCountedNotKept() {
        long at = 1_000;
        for (int i = 0; i <= OutputChunkGaps.MAX_GAPS + 10; i++) {
            m.output(chunk(1, 0, null), at);
            at += 1_000 * (i % 7 + 1);
        }
        OutputChunkGaps g = m.outputChunkGaps();
        assertEquals(OutputChunkGaps.MAX_GAPS, g.size());
        assertEquals(10, g.dropped());
        assertEquals(1, g.gapUs(0));
        assertEquals(7, g.gapUs(6));
        assertEquals(1, g.gapUs(7));
    }
}
