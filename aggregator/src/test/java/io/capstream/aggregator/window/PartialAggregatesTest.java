package io.capstream.aggregator.window;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The re-keying task's buffer puts every request into the partial of its own key and window, in any order. */
class PartialAggregatesTest {
    private static final long MINUTE = 60_000L;

    @Test
    void interleavedKeysAndWindowsEachGetTheirOwnRequests() {
        PartialAggregates partials = new PartialAggregates(MINUTE, 0.01, List.of());
        String a = "http://a/v1|m|le4096";
        String b = "http://b/v1|m|le4096";
        add(partials, a, 10);
        add(partials, a, 20);
        add(partials, new String(b), 30); // an equal key in another String object
        add(partials, b, 40);
        add(partials, a, 50);
        add(partials, a, MINUTE + 5); // the next window
        add(partials, new String(a), 60);
        assertThat(counts(partials.drain())).as("requests per key and window start")
                .isEqualTo(Map.of(a + "@0", 4L, b + "@0", 2L, a + "@" + MINUTE, 1L));
        add(partials, a, 70); // after a drain: a new partial, not the drained one
        List<PartialAggregates.Partial> next = partials.drain();
        assertThat(counts(next)).as("requests per key and window start after a drain").isEqualTo(Map.of(a + "@0", 1L));
        assertThat(next.get(0).maxTime()).as("largest event time of the new partial").isEqualTo(70L);
    }

    private static void add(PartialAggregates partials, String key, long t) {
        partials.add(key, t, new WindowInput.Completed(new RequestSample(50, 50, 800, 15.0, 60.0, 5000.0, 3000L, 64)));
    }

    private static Map<String, Long> counts(List<PartialAggregates.Partial> drained) {
        return drained.stream().collect(Collectors.toMap(p -> p.key() + "@" + p.windowStart(),
                p -> p.aggregate().requests()));
    }
}
