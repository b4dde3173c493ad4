package io.capstream.schemas.time;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class CapClockTest {
    @Test
    void systemClockReadsTheSystemTimes() throws InterruptedException {
        CapClock c = CapClock.system();
        long before = System.currentTimeMillis();
        long ms = c.millis();
        assertThat(ms).as("epoch ms of the system clock").isBetween(before, System.currentTimeMillis());
        assertThat(c.instant().toEpochMilli()).as("instant vs millis").isGreaterThanOrEqualTo(ms);
        long n0 = System.nanoTime();
        long n = c.nanoTime();
        assertThat(n).as("monotonic ns on System.nanoTime's scale").isBetween(n0, System.nanoTime());
        c.sleep(Duration.ZERO);
        assertThatThrownBy(() -> c.sleep(Duration.ofMillis(-1))).as("a negative sleep")
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void manualClockMovesOnlyWhenAdvancedOrSlept() throws InterruptedException {
        ManualCapClock c = new ManualCapClock(Instant.parse("2026-01-01T00:00:00Z"));
        long n0 = c.nanoTime();
        assertThat(c.instant()).as("start").isEqualTo(Instant.parse("2026-01-01T00:00:00Z"));
        c.advance(Duration.ofMillis(1500));
        assertThat(c.millis()).as("epoch ms after 1.5 s").isEqualTo(Instant.parse("2026-01-01T00:00:01.500Z").toEpochMilli());
        assertThat(c.nanoTime() - n0).as("monotonic ns after 1.5 s").isEqualTo(1_500_000_000L);
        int[] hooks = {0};
        c.onSleep(d -> hooks[0]++);
        c.sleep(Duration.ofSeconds(2));
        assertThat(c.nanoTime() - n0).as("monotonic ns after a 2 s sleep").isEqualTo(3_500_000_000L);
        assertThat(c.sleeps()).as("sleeps recorded").containsExactly(Duration.ofSeconds(2));
        assertThat(hooks[0]).as("sleep hook runs").isEqualTo(1);
        assertThatThrownBy(() -> c.advance(Duration.ofNanos(-1))).as("backwards")
                .isInstanceOf(IllegalArgumentException.class);
    }
}
