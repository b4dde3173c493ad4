package io.capstream.aggregator.window;

import static org.assertj.core.api.Assertions.assertThat;

import io.capstream.aggregator.serde.SerdeFixtures;
import io.capstream.schemas.avro.ServerWindowPoints;
import io.capstream.schemas.avro.ServerWindowSeries;
import io.capstream.schemas.avro.ServerWindowState;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ServerWindowStateSerdeTest {
    private static final long T0 = 1_767_225_600_000L;
    private final ServerWindowStateSerde serde = new ServerWindowStateSerde();

    /** The aggregate the fixture was captured from: three scrapes, one without requests_waiting. */
    private static ServerWindowAggregate scraped() {
        ServerWindowAggregate a = new ServerWindowAggregate();
        Map<String, Double> first = new LinkedHashMap<>();
        first.put("requests_running", 2.0);
        first.put("requests_waiting", 0.0);
        a.add(T0 + 100, first);
        a.add(T0 + 1100, Map.of("requests_running", 4.0));
        Map<String, Double> third = new LinkedHashMap<>();
        third.put("requests_running", 3.0);
        third.put("requests_waiting", 1.5);
        third.put("dropped", Double.NaN);
        a.add(T0 + 2100, third);
        return a;
    }

    private ServerWindowState roundTrip(ServerWindowState s) {
        return serde.deserializer().deserialize("t", serde.serializer().serialize("t", s));
    }

    @Test
    void capturedBytesDecodeToTheStateTheyWereWrittenFrom() {
        byte[] current = serde.serializer().serialize("t", scraped().state());
        byte[] captured = SerdeFixtures.captured("server-window-state.bin", current);
        ServerWindowState decoded = serde.deserializer().deserialize("t", captured);
        assertThat(decoded.getSeries()).as("series in first-seen order").extracting(ServerWindowPoints::getName)
                .containsExactly("requests_running", "requests_waiting");
        ServerWindowPoints running = decoded.getSeries().get(0);
        assertThat(running.getEpochMs()).as("scrape times").containsExactly(T0 + 100, T0 + 1100, T0 + 2100);
        assertThat(running.getValues()).as("values").containsExactly(2.0, 4.0, 3.0);
        ServerWindowPoints waiting = decoded.getSeries().get(1);
        assertThat(waiting.getEpochMs()).containsExactly(T0 + 100, T0 + 2100);
        assertThat(waiting.getValues()).containsExactly(0.0, 1.5);
        assertThat(current).as("today's encoding is the captured one").isEqualTo(captured);
    }

    @Test
    void aDecodedStateTakesMoreScrapesAndSummarisesAsTheOriginal() {
        ServerWindowAggregate original = scraped();
        ServerWindowAggregate restored = new ServerWindowAggregate(roundTrip(original.state()));
        assertThat(restored.summary()).as("summary after a round trip").isEqualTo(original.summary());
        ServerWindowSeries running = restored.summary().get("requests_running");
        assertThat(List.of(running.getMin(), running.getP50(), running.getMax(), running.getLast()))
                .as("min, nearest-rank p50 (2nd of 2, 3, 4), max, last").containsExactly(2.0, 3.0, 4.0, 3.0);
        restored.add(T0 + 50, Map.of("requests_running", 9.0, "late_series", 1.0));
        ServerWindowSeries after = restored.summary().get("requests_running");
        assertThat(after.getMax()).isEqualTo(9.0);
        assertThat(after.getLast()).as("the latest scrape's, not the last added").isEqualTo(3.0);
        assertThat(restored.summary()).containsKey("late_series");
    }

    @Test
    void anEmptyStateAndNullRoundTrip() {
        assertThat(roundTrip(new ServerWindowAggregate().state()).getSeries()).isEmpty();
        assertThat(serde.serializer().serialize("t", null)).isNull();
        assertThat(serde.deserializer().deserialize("t", null)).isNull();
    }
}
