package io.capstream.schemas.text;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** {@link DurationLabel}: the largest exact unit, never ISO-8601. */
class DurationLabelTest {
    @Test
    void spellsTheLargestExactUnit() {
        assertThat(DurationLabel.of(Duration.ofDays(3))).as("3 days").isEqualTo("3d");
        assertThat(DurationLabel.of(Duration.ofHours(1))).as("1 hour").isEqualTo("1h");
        assertThat(DurationLabel.of(Duration.ofMinutes(1))).as("1 minute").isEqualTo("1m");
        assertThat(DurationLabel.of(Duration.ofSeconds(90))).as("90 s (1m30s is not an option's spelling)")
                .isEqualTo("90s");
        assertThat(DurationLabel.of(Duration.ofMillis(500))).as("500 ms").isEqualTo("500ms");
        assertThat(DurationLabel.of(Duration.ZERO)).as("zero").isEqualTo("0s");
    }
}
