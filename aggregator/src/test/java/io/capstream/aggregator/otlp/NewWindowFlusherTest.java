package io.capstream.aggregator.otlp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.capstream.aggregator.api.WindowTotals;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class NewWindowFlusherTest {
    private static WindowTotals.Snapshot series(long windows) {
        return new WindowTotals.Snapshot(new WindowTotals.SeriesKey("http://t", "m", "le512"), 0, windows, Map.of(), 0,
                Map.of(), 0, 0, 0, 0);
    }

    @Test
    void flushesOncePerNewWindowEvenWhenTheExportFails() {
        AtomicLong windows = new AtomicLong(0);
        AtomicInteger checks = new AtomicInteger();
        AtomicInteger flushes = new AtomicInteger();
        try (NewWindowFlusher flusher = new NewWindowFlusher(() -> {
            checks.incrementAndGet();
            return List.of(series(windows.get()));
        }, () -> {
            flushes.incrementAndGet();
            return false; // endpoint down
        }, Duration.ofMillis(5))) {
            await().atMost(Duration.ofSeconds(20)).until(() -> checks.get() >= 5);
            assertThat(flushes.get()).as("no window yet: no flush").isZero();
            windows.set(1);
            await().atMost(Duration.ofSeconds(20)).until(() -> flushes.get() >= 1);
            int seen = checks.get();
            await().atMost(Duration.ofSeconds(20)).until(() -> checks.get() >= seen + 5);
            assertThat(flushes.get()).as("a failed flush is not repeated at every check").isEqualTo(1);
            windows.set(3);
            await().atMost(Duration.ofSeconds(20)).until(() -> flushes.get() >= 2);
            int seen2 = checks.get();
            await().atMost(Duration.ofSeconds(20)).until(() -> checks.get() >= seen2 + 5);
            assertThat(flushes.get()).as("one more flush for the new windows").isEqualTo(2);
        }
    }
}
