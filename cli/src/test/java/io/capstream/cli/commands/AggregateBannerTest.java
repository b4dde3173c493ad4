package io.capstream.cli.commands;

import static org.assertj.core.api.Assertions.assertThat;

import io.capstream.cli.options.DurationConverter;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The first line {@code aggregate} prints once it runs (no Kafka needed: the line alone). */
class AggregateBannerTest {
    @Test
    void durationsAreSpelledAsTheOptionsTakeThem() {
        String line = AggregateCommand.runningLine(DurationConverter.parse("90s"), DurationConverter.parse("500ms"), 1,
                "127.0.0.1", 8088);
        assertThat(line).as("banner with --window 90s --grace 500ms")
                .startsWith("capstream aggregate: running (window 90s, grace 500ms, 1 SLO); HTTP API on"
                        + " http://127.0.0.1:8088 ")
                .doesNotContain("PT");
        assertThat(AggregateCommand.runningLine(Duration.ofMinutes(1), Duration.ofSeconds(10), 2, "h", 1))
                .as("the defaults").contains("(window 1m, grace 10s, 2 SLOs)");
    }
}
