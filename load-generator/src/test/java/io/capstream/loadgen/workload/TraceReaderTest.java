package io.capstream.loadgen.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.capstream.loadgen.arrival.ArrivalSchedule;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --trace}: the Mooncake trace format read into prompts, lengths and arrival offsets (issue 15 part 5). */
class TraceReaderTest {
    private static final Path SMALL = Path.of("src/test/resources/traces/mooncake-small.jsonl");
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tmp;

    private static String content(DatasetEntry e) throws Exception {
        return JSON.readTree(e.messagesJson()).get(0).get("content").asText();
    }

    @Test
    void eachLineIsARequestWithItsLengthsAtItsOffsetFromTheFirstLine() throws Exception {
        TraceReader.Trace t = TraceReader.read(SMALL, 100);
        Dataset d = t.dataset();
        assertEquals("mooncake-small.jsonl", d.name());
        assertEquals("mooncake", d.format());
        assertEquals(64, d.sha256().length());
        assertEquals(5, d.size(), "the blank line is skipped");
        assertArrayEquals(new long[] {0, 100_000_000, 600_500_000, 1_400_000_000, 1_450_000_000}, t.offsetsNs());
        int[] input = {1200, 1300, 600, 1200, 300};
        int[] output = {8, 4, 12, 8, 2};
        for (int i = 0; i < 5; i++) {
            DatasetEntry e = d.entry(i);
            assertEquals(input[i], e.promptTokens());
            assertEquals(output[i], e.outputTokens());
            assertEquals(input[i] * 3, content(e).length(), "3 characters per token (the estimate)");
            assertEquals("user", JSON.readTree(e.messagesJson()).get(0).get("role").asText());
        }
        // equal hash ids, equal blocks: lines 1 and 2 share their first two 512-token blocks, lines 1 and 4 are equal
        String a = content(d.entry(0));
        String b = content(d.entry(1));
        int block = TraceReader.BLOCK_TOKENS * 3;
        assertEquals(a.substring(0, 2 * block), b.substring(0, 2 * block));
        assertNotEquals(a.substring(2 * block, 2 * block + 50), b.substring(2 * block, 2 * block + 50));
        assertEquals(a, content(d.entry(3)));
        assertNotEquals(content(d.entry(2)).substring(0, 50), a.substring(0, 50), "other ids, other text");
        // the schedule of a trace: those offsets
        ArrivalSchedule s = ArrivalSchedule.ofOffsets(t.offsetsNs());
        for (long expected : t.offsetsNs()) {
            assertEquals(expected, s.next());
        }
    }

    @Test
    void onlyTheRunsRequestsAreKept() {
        TraceReader.Trace t = TraceReader.read(SMALL, 2);
        assertEquals(2, t.dataset().size());
        assertEquals(2, t.offsetsNs().length);
    }

    private String error(String lines) throws Exception {
        Path f = tmp.resolve("t.jsonl");
        Files.writeString(f, lines);
        return assertThrows(IllegalArgumentException.class, () -> TraceReader.read(f, 100)).getMessage();
    }

    @Test
    void aTimestampPastSevenDaysIsRefusedInsteadOfARunThatWaitsForever() throws Exception {
        // issue 27.6: a line at 10^15 ms made the run wait silently for a request due in 30,000 years
        String ok = "{\"timestamp\": 0, \"input_length\": 10, \"output_length\": 1}\n";
        String e = error(ok + "{\"timestamp\": 1e15, \"input_length\": 10, \"output_length\": 1}\n");
        assertEquals("--trace t.jsonl: line 2: timestamp 1000000000000000 ms is 277,777,778 h after the first line's;"
                + " a trace may span at most 7 days (168 h): check the unit (timestamps are ms) or cut the trace", e);
    }

    @Test
    void deepNestingIsNamedInWordsWithItsLine() throws Exception {
        String ok = "{\"timestamp\": 0, \"input_length\": 10, \"output_length\": 1}\n";
        String e = error(ok + "{\"x\": " + "[".repeat(5000) + "]".repeat(5000) + "}\n");
        assertEquals("--trace t.jsonl: line 2: nested deeper than 1,000 levels (the JSON reader's limit)", e);
    }

    @Test
    void aBadTraceIsAOneLineErrorNamingTheLine() throws Exception {
        String ok = "{\"timestamp\": 5, \"input_length\": 10, \"output_length\": 1}\n";
        assertThat(error(ok + "{\"timestamp\": 6\n")).startsWith("--trace t.jsonl: line 2: not valid JSON (");
        assertEquals("--trace t.jsonl: line 1: needs \"input_length\", an integer of tokens in 1..1048576",
                error("{\"timestamp\": 5, \"output_length\": 1}\n"));
        assertEquals("--trace t.jsonl: line 1: needs \"timestamp\", a number of ms >= 0",
                error("{\"input_length\": 10, \"output_length\": 1}\n"));
        assertEquals("--trace t.jsonl: line 2: timestamp 4 is before the previous line's 5 (the lines must be in time"
                + " order)", error(ok + "{\"timestamp\": 4, \"input_length\": 10, \"output_length\": 1}\n"));
        assertEquals("--trace t.jsonl: line 1: \"hash_ids\" must be an array of integers",
                error("{\"timestamp\": 5, \"input_length\": 10, \"output_length\": 1, \"hash_ids\": \"x\"}\n"));
        assertEquals("--trace t.jsonl: no requests (an empty file)", error("\n\n"));
        assertThat(assertThrows(IllegalArgumentException.class, () -> TraceReader.read(tmp.resolve("none.jsonl"), 1))
                .getMessage()).startsWith("--trace none.jsonl: no such file: ");
    }

    @Test
    void offsetsMustNotGoBackInTime() {
        assertThrows(IllegalArgumentException.class, () -> ArrivalSchedule.ofOffsets(new long[] {5, 4}));
        assertThrows(IllegalArgumentException.class, () -> ArrivalSchedule.ofOffsets(new long[] {-1}));
    }
}
