package io.capstream.schemas.text;

import java.time.Duration;

/**
 * A duration spelled the way capstream's duration options take it back: one number and one unit, the largest unit
 * that divides it exactly ({@code 3d}, {@code 6h}, {@code 5m}, {@code 90s}, {@code 500ms}), for banners and names
 * instead of ISO-8601 ({@code PT1M30S}). Stateless.
 */
public final class DurationLabel {
    private static final long[] UNITS_MS = {86_400_000L, 3_600_000L, 60_000L, 1000L};
    private static final String[] UNIT_NAMES = {"d", "h", "m", "s"};

    private DurationLabel() {
    }

    /**
     * @param d a duration; not null (below a millisecond is dropped, as the options count in milliseconds)
     * @return the shortest exact label: {@code 3d}, {@code 6h}, {@code 5m}, {@code 30s} or {@code 500ms}; {@code 0s}
     */
    public static String of(Duration d) {
        long ms = d.toMillis();
        if (ms == 0) {
            return "0s";
        }
        for (int i = 0; i < UNITS_MS.length; i++) {
            if (ms % UNITS_MS[i] == 0) {
                return ms / UNITS_MS[i] + UNIT_NAMES[i];
            }
        }
        return ms + "ms";
    }
}
