package io.capstream.cli.continuous;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * {@code generate --continuous} on SIGTERM while its broker also stops: the hook waited 60 s for the sink's flush;
 * now at most {@link ContinuousDriver#STOP_BOUND}, then one line saying what was not flushed ({@code BoundedStopTest}).
 */
class ContinuousStopBoundTest {
    @Test
    void theStopIsBoundedWellBelowAMinuteAndNamesWhatItLeaves() {
        assertThat(ContinuousDriver.STOP_BOUND).as("bound of the stop").isLessThanOrEqualTo(Duration.ofSeconds(15));
        assertThat(ContinuousDriver.UNFLUSHED).as("the line's clause").contains("not flushed");
    }
}
