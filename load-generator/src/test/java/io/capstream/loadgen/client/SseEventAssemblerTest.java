package io.capstream.loadgen.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.capstream.loadgen.client.SseEventAssembler.Parse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The event framing on its own, with a stand-in parser: a payload starting with '{' is PARSED
 * when its braces balance and INCOMPLETE while more are open; anything else is INVALID.
 */
class SseEventAssemblerTest {
    private final List<String> applied = new ArrayList<>();
    private final List<Long> dataLines = new ArrayList<>();
    private final List<byte[]> arrays = new ArrayList<>();
    private String parsed;
    private final SseEventAssembler events = new SseEventAssembler(new SseEventAssembler.PayloadHandler() {
        @Override
        public void dataLine(long atNs) {
            dataLines.add(atNs);
        }

        @Override
        public Parse parse(byte[] b, int off, int len) {
            arrays.add(b);
            parsed = new String(b, off, len, StandardCharsets.UTF_8);
            if (!parsed.startsWith("{")) {
                return Parse.INVALID;
            }
            int depth = 0;
            for (char c : parsed.toCharArray()) {
                depth += c == '{' ? 1 : c == '}' ? -1 : 0;
            }
            return depth == 0 ? Parse.PARSED : depth > 0 ? Parse.INCOMPLETE : Parse.INVALID;
        }

        @Override
        public boolean apply(long atNs) {
            applied.add(parsed.replace('\n', '|') + "@" + atNs);
            return !parsed.contains("fail");
        }
    });

    private boolean line(long now, String text) {
        events.at(now);
        byte[] b = text.getBytes(StandardCharsets.UTF_8);
        return events.onLine(b, 0, b.length);
    }

    @Test
    void oneLinePayloadIsParsedInTheCallersArrayWithoutACopy() {
        byte[] b = "data: {\"a\":1}".getBytes(StandardCharsets.UTF_8);
        events.at(5);
        assertTrue(events.onLine(b, 0, b.length));
        assertSame(b, arrays.get(0));
        assertEquals(List.of("{\"a\":1}@5"), applied);
        assertFalse(events.pending());
    }

    @Test
    void commentsAndOtherFieldsDoNotEndAnEvent() {
        line(10, "data: {");
        line(20, ": ping");
        line(30, "event: message");
        line(40, "id: 7");
        line(50, "data: \"a\":1}");
        assertTrue(events.pending());
        assertEquals(List.of(), applied);
        line(60, "");
        assertEquals(List.of("{\"a\":1}@60"), applied, "the lines are joined as they were cut");
        assertEquals(List.of(10L, 50L), dataLines, "two data lines, reported at their arrival (a 40 ns gap)");
    }

    @Test
    void givenUpEventHandsItsOtherLinesOverAtTheirOwnTimes() {
        line(10, "data: {cut");
        line(20, "data: {b}");
        line(30, "data: junk");
        line(40, "data: {c}");
        assertEquals(List.of(), applied);
        line(50, "   \r");
        assertEquals(List.of("{b}@20", "{c}@40"), applied, "the first line is skipped, the others as line by line");
        assertFalse(events.pending());
    }

    @Test
    void failureInAGivenUpEventStops() {
        line(10, "data: {cut");
        line(20, "data: {fail}");
        line(30, "data: {never}");
        assertFalse(events.onEnd());
        assertEquals(List.of("{fail}@20"), applied);
    }

    @Test
    void everyDataLineIsReportedBeforeItsPayloadIncludingDoneAndUnparseableOnes() {
        line(10, "data: junk");
        line(20, "data:");
        line(30, "event: x");
        line(40, "  data: {\"a\":1}  \r");
        assertFalse(line(50, "data: [DONE]"));
        assertEquals(List.of(10L, 20L, 40L, 50L), dataLines);
        assertEquals(List.of("{\"a\":1}@40"), applied);
    }

    @Test
    void doneStopsAtOnce() {
        line(10, "data: {a");
        line(20, "data: }");
        assertFalse(line(30, "data: [DONE]"));
        assertTrue(events.done());
        assertEquals(List.of("{a}@30"), applied);
    }

    @Test
    void eventOverTheByteBoundIsGivenUpAndTheLineThatCrossedItIsHandledAlone() {
        line(1, "data: {");
        String big = "{" + "x".repeat(40_000) + "}";
        line(2, "data: " + big);
        assertTrue(events.pending());
        line(3, "data: " + big); // would pass 64 KiB
        assertFalse(events.pending());
        assertEquals(2, applied.size());
        assertThat(applied.get(0)).as(applied.get(0).substring(0, 5)).endsWith("}@2");
        assertThat(applied.get(1)).as(applied.get(0).substring(0, 5)).endsWith("}@3");
    }

    @Test
    void eventOverTheLineBoundIsGivenUp() {
        line(1, "data: {");
        for (int i = 0; i < SseEventAssembler.MAX_EVENT_LINES - 1; i++) {
            line(2, "data: {}");
        }
        assertTrue(events.pending());
        assertEquals(0, applied.size());
        line(3, "data: {last}");
        assertFalse(events.pending());
        assertEquals(SseEventAssembler.MAX_EVENT_LINES, applied.size());
        assertEquals("{last}@3", applied.get(applied.size() - 1));
    }

    @Test
    void continuationLinesKeepTheirSpacesAfterTheOneOptionalSpaceAndTheFirstLineKeepsItsTrailingSpaces() {
        line(10, "data: {\"c\":\" a \r");
        line(20, "data:   b\"  \r");
        line(30, "data:}");
        line(40, "");
        assertThat(applied).as("WHATWG values joined: one space after 'data:' dropped, the rest kept, CR dropped")
                .containsExactly("{\"c\":\" a   b\"  }@40");
    }
}
