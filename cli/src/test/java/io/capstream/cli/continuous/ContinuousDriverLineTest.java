package io.capstream.cli.continuous;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.capstream.loadgen.run.RunOutcome;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The line `generate --continuous` prints per run (issue 27.1: a run whose events were lost said "0 failed of 20"). */
class ContinuousDriverLineTest {
    private static RunOutcome outcome(long undelivered, boolean interrupted) {
        return new RunOutcome("probe-c3", "w", 20, 20, 20, 0, undelivered, interrupted, Instant.EPOCH, Instant.EPOCH,
                1_000_000L, null, null);
    }

    @Test
    void aRunWithUndeliveredEventsSaysSoOnItsOwnLine() {
        assertEquals("run probe-c3: 20 completed, 0 failed of 20", ContinuousDriver.line(outcome(0, false)));
        assertEquals("run probe-c3: 20 completed, 0 failed of 20; 21 of its events were NOT delivered to Kafka: its"
                + " report and windows miss them", ContinuousDriver.line(outcome(0, false).withEventsUndelivered(21)));
        assertEquals("run probe-c3: 20 completed, 0 failed of 20 (interrupted)", ContinuousDriver.line(outcome(0, true)));
        assertEquals(5, outcome(5, false).withEventsUndelivered(2).eventsUndelivered(), "the larger count stays");
    }

    @Test
    void cancelledRequestsAreCountedSoThatTheCountsAddUp() {
        // before the fix a --cancel-rate run said "8 completed, 0 failed of 20": 12 requests unaccounted for
        RunOutcome cancels = new RunOutcome("probe-c4", "w", 20, 20, 8, 0, 0, false, Instant.EPOCH, Instant.EPOCH,
                1_000_000L, null, null);
        org.assertj.core.api.Assertions.assertThat(ContinuousDriver.line(cancels)).as("line of a run with 12 cancelled")
                .isEqualTo("run probe-c4: 8 completed, 0 failed, 12 cancelled of 20");
    }

    @Test
    void theStartLineSpellsDurationsAsTheOptionsTakeThem() {
        // before the fix it said "every PT10S, heartbeats every PT2S"
        org.assertj.core.api.Assertions.assertThat(ContinuousDriver.startLine("capstream generate", "closed",
                "http://127.0.0.1:8000", java.time.Duration.ofSeconds(10), java.time.Duration.ofSeconds(2)))
                .as("the start line of generate --continuous")
                .isEqualTo("capstream generate: closed mode against http://127.0.0.1:8000, every 10s, heartbeats every 2s;"
                        + " Ctrl-C to stop");
    }
}
