package io.capstream.loadgen.arrival;

import java.util.Locale;

/**
 * How request start times are chosen. {@link #CLOSED} is the reference's closed loop (a fixed
 * number of slots, each starting the next request index when its previous request ends, spec §5);
 * {@link #CONSTANT}, {@link #POISSON} and {@link #GAMMA} are open loops at {@code --rate} requests per second (or
 * along a {@code --rate-schedule}, see {@link ArrivalSchedule}), capped by {@code --max-in-flight}; {@link #TRACE} is
 * an open loop at a trace's timestamps ({@code --trace}).
 */
public enum ArrivalMode {
    /** Closed loop with {@code --concurrency} slots (reference behaviour). */
    CLOSED,
    /** Open loop, evenly spaced arrivals: request k is scheduled at k / rate seconds. */
    CONSTANT,
    /** Open loop, exponential inter-arrival times with mean 1 / rate (seeded by {@code --seed}). */
    POISSON,
    /** Open loop at the timestamps of a {@code --trace} file (Mooncake format), relative to its first. */
    TRACE,
    /**
     * Open loop, gamma-distributed inter-arrival times with mean 1 / rate and shape {@code --burstiness} B (B = 1 is
     * Poisson, smaller is burstier: coefficient of variation 1/sqrt(B); seeded by {@code --seed}; issue 30).
     */
    GAMMA;

    /** @return the recorded name: closed, constant, poisson, trace or gamma */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * @param s closed, constant, poisson, gamma or trace (case-insensitive)
     * @return the mode
     * @throws IllegalArgumentException for an unknown name
     */
    public static ArrivalMode parse(String s) {
        for (ArrivalMode m : values()) {
            if (m.wireName().equalsIgnoreCase(s.trim())) {
                return m;
            }
        }
        throw new IllegalArgumentException("arrival must be one of closed, constant, poisson, gamma; got '" + s + "'");
    }
}
