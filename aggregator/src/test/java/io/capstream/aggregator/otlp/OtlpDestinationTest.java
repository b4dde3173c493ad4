package io.capstream.aggregator.otlp;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The export's banner line. */
class OtlpDestinationTest {
    private static String described(Duration interval) {
        return new OtlpDestination("http://127.0.0.1:4318/v1/metrics", interval, Set.of()).describe();
    }

    /** As the options write durations (before: {@code every 0.5s} for 500 ms, {@code every 1m30s} for 90 s). */
    @Test
    void theIntervalIsWrittenAsTheOptionsWriteIt() {
        assertThat(described(Duration.ofMillis(500))).as("500 ms").endsWith(" every 500ms");
        assertThat(described(Duration.ofSeconds(90))).as("90 s").endsWith(" every 90s");
        assertThat(described(Duration.ofSeconds(60))).as("the default").endsWith(" every 1m");
        assertThat(described(Duration.ofMinutes(5))).as("5 min").endsWith(" every 5m");
    }

    @Test
    void headerValuesAreNeverShownOnlyTheirNames() {
        String d = new OtlpDestination("http://127.0.0.1:4318/v1/metrics", Duration.ofSeconds(60),
                new java.util.TreeSet<>(Set.of("api-key", "x-tenant"))).describe();
        assertThat(d).as("description").isEqualTo(
                "http://127.0.0.1:4318/v1/metrics every 1m, headers api-key=****, x-tenant=****");
    }
}
