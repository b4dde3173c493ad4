package io.capstream.loadgen.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SseLineSplitterTest {
    private final List<String> lines = new ArrayList<>();
    private final SseLineSplitter splitter = new SseLineSplitter((b, off, len) -> {
        lines.add(new String(b, off, len, StandardCharsets.UTF_8));
        return !new String(b, off, len, StandardCharsets.UTF_8).equals("stop");
    });

    private void feed(byte[] b, int... cuts) {
        int start = 0;
        for (int c : cuts) {
            splitter.feed(b, start, c - start);
            start = c;
        }
        splitter.feed(b, start, b.length - start);
    }

    @Test
    void splitsOnLfKeepsCr() {
        feed("a\r\nb\n\nc".getBytes(StandardCharsets.UTF_8));
        splitter.finish();
        assertEquals(List.of("a\r", "b", "", "c"), lines);
        assertEquals(7, splitter.bytes());
    }

    @Test
    void reassemblesLinesSplitAcrossChunksIncludingMultiByteUtf8() {
        byte[] b = "data: {\"x\":\"h\u00e9\u20ac\ud83d\ude00\"}\nnext\n".getBytes(StandardCharsets.UTF_8);
        // cut in every possible place, including inside each multi-byte character
        for (int cut = 1; cut < b.length; cut++) {
            lines.clear();
            SseLineSplitter s = new SseLineSplitter((x, off, len) -> lines.add(new String(x, off, len, StandardCharsets.UTF_8)));
            s.feed(b, 0, cut);
            s.feed(b, cut, b.length - cut);
            assertEquals(List.of("data: {\"x\":\"h\u00e9\u20ac\ud83d\ude00\"}", "next"), lines, "cut at " + cut);
        }
    }

    @Test
    void byteByByte() {
        byte[] b = "one\ntwo\n".getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < b.length; i++) {
            splitter.feed(b, i, 1);
        }
        assertEquals(List.of("one", "two"), lines);
    }

    @Test
    void stopsWhenHandlerSaysSo() {
        feed("a\nstop\nb\n".getBytes(StandardCharsets.UTF_8));
        assertEquals(List.of("a", "stop"), lines);
        assertFalse(splitter.feed("c\n".getBytes(StandardCharsets.UTF_8), 0, 2));
        assertFalse(splitter.finish());
    }

    @Test
    void longLineGrowsCarry() {
        String big = "x".repeat(10_000);
        byte[] b = (big + "\n").getBytes(StandardCharsets.UTF_8);
        feed(b, 100, 5000, 9999);
        assertEquals(List.of(big), lines);
    }

    @Test
    void finishHandsTheLastLineThenSignalsTheEndOnce() {
        List<String> seen = new ArrayList<>();
        SseLineSplitter s = new SseLineSplitter(new SseLineSplitter.LineHandler() {
            @Override
            public boolean onLine(byte[] b, int off, int len) {
                seen.add(new String(b, off, len, StandardCharsets.UTF_8));
                return true;
            }

            @Override
            public boolean onEnd() {
                seen.add("<end>");
                return false;
            }
        });
        s.feed("a\nb".getBytes(StandardCharsets.UTF_8), 0, 3);
        assertFalse(s.finish(), "the handler's answer at the end");
        assertFalse(s.finish());
        assertEquals(List.of("a", "b", "<end>"), seen);
    }
}
