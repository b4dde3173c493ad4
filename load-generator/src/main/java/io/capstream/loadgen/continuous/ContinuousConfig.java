package io.capstream.loadgen.continuous;

import io.capstream.loadgen.arrival.ArrivalMode;
import io.capstream.loadgen.run.LoadShape;
import io.capstream.loadgen.run.RunConfig;
import io.capstream.loadgen.run.RunIdentity;
import io.capstream.loadgen.run.WarmupConfig;
import java.time.Duration;
import java.util.Objects;

/**
 * Settings of {@link ContinuousRunner}.
 *
 * @param base              the run repeated each time (its run id override, if any, gets
 *                          {@code -<iteration>} appended; otherwise each run derives its own
 *                          {@code benchmark-<UTC>} id with suffix {@code c<iteration>}); not null
 * @param mode              {@link Mode#PROBE} or {@link Mode#STEADY}; not null
 * @param interval          PROBE: time between the starts of consecutive runs; STEADY: length of
 *                          each back-to-back run (its {@code duration}); &gt; 0
 * @param heartbeatInterval time between heartbeats (&gt; 0); default 2 s
 */
public record ContinuousConfig(RunConfig base, Mode mode, Duration interval, Duration heartbeatInterval) {
    /** Default heartbeat period: 2 s. */
    public static final Duration DEFAULT_HEARTBEAT = Duration.ofSeconds(2);

    /** How runs follow each other. */
    public enum Mode {
        /** A probe run every {@code interval} (the next starts at the next interval boundary). */
        PROBE,
        /** Back-to-back open-loop runs of {@code interval} each: holds the configured rate. */
        STEADY
    }

    /** Validates. */
    public ContinuousConfig {
        Objects.requireNonNull(base, "base");
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(interval, "interval");
        heartbeatInterval = heartbeatInterval == null ? DEFAULT_HEARTBEAT : heartbeatInterval;
        if (interval.toMillis() <= 0) {
            throw new IllegalArgumentException("--interval must be > 0");
        }
        if (heartbeatInterval.toMillis() <= 0) {
            throw new IllegalArgumentException("heartbeat interval must be > 0");
        }
        if (mode == Mode.STEADY && base.load().arrival() == ArrivalMode.CLOSED) {
            throw new IllegalArgumentException("steady continuous mode needs an open-loop arrival"
                    + " (--arrival constant, poisson or gamma with --rate or --rate-schedule)");
        }
    }

    /**
     * @param base     the run
     * @param interval interval
     * @return PROBE mode for a closed-loop run (or an open-loop one with a duration), STEADY for an
     *         open-loop run without a duration; 2 s heartbeats
     */
    public static ContinuousConfig of(RunConfig base, Duration interval) {
        LoadShape load = base.load();
        Mode mode = load.arrival() != ArrivalMode.CLOSED && load.durationS() == null ? Mode.STEADY : Mode.PROBE;
        return new ContinuousConfig(base, mode, interval, DEFAULT_HEARTBEAT);
    }

    /**
     * @param hb heartbeat period
     * @return a copy with this heartbeat period
     */
    public ContinuousConfig withHeartbeatInterval(Duration hb) {
        return new ContinuousConfig(base, mode, interval, hb);
    }

    /**
     * The config of run number {@code iteration}.
     *
     * @param iteration 0-based run number
     * @return the run's config
     */
    public RunConfig runConfig(int iteration) {
        RunIdentity id = base.identity();
        if (id.runId() != null) {
            id = id.withRunId(id.runId() + "-" + iteration);
        } else {
            String suffix = id.runIdSuffix();
            id = id.withRunIdSuffix((suffix == null || suffix.isBlank() ? "" : suffix + "-") + "c" + iteration);
        }
        RunConfig run = base.withIdentity(id);
        if (mode == Mode.STEADY) {
            run = run.withLoad(run.load().withDurationS(interval.toMillis() / 1000.0));
        }
        if (iteration > 0) {
            run = run.withWarmup(WarmupConfig.NONE); // the process is warm after the first run
        }
        return run;
    }
}
