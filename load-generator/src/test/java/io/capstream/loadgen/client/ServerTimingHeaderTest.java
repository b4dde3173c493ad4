package io.capstream.loadgen.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Issue 33: the Server-Timing header's entries, name to dur (ms). */
class ServerTimingHeaderTest {
    @Test
    void entriesWithADurAreReadInOrderOthersLeftOut() {
        Map<String, Double> m = ServerTimingHeader.parse(List.of(
                "queue;dur=1.5, ttft;desc=\"first token\";dur=42, miss, cache;desc=hit",
                "total;dur=\"120.25\", bad;dur=x"));
        assertThat(m).as("parsed entries").containsExactly(Map.entry("queue", 1.5), Map.entry("ttft", 42.0),
                Map.entry("total", 120.25));
    }

    @Test
    void noHeaderOrNoDurationIsNull() {
        assertThat(ServerTimingHeader.parse(List.of())).as("no header").isNull();
        assertThat(ServerTimingHeader.parse(null)).as("null").isNull();
        assertThat(ServerTimingHeader.parse(List.of("cache;desc=hit"))).as("no dur").isNull();
    }
}
