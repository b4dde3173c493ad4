package io.capstream.loadgen.run;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * Run ids and the artifact's UTC time strings (spec §9.2). The derived id is
 * {@code benchmark-YYYYMMDDTHHMMSSZ} from the UTC start time (second resolution, so two runs
 * started in the same second collide); {@code --run-id-suffix S} makes it
 * {@code benchmark-YYYYMMDDTHHMMSSZ-S}, and {@code --run-id X} replaces it entirely.
 */
public final class RunIds {
    private static final DateTimeFormatter ID = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);
    private static final DateTimeFormatter UTC = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss'Z'").withZone(ZoneOffset.UTC);

    private RunIds() {
    }

    /**
     * @param startedAt UTC start of the run
     * @param override  run id to use verbatim, or null
     * @param suffix    suffix appended as {@code -suffix}, or null/blank
     * @return the run id
     */
    public static String runId(Instant startedAt, String override, String suffix) {
        if (override != null) {
            return override;
        }
        String id = "benchmark-" + ID.format(startedAt);
        return suffix == null || suffix.isBlank() ? id : id + "-" + suffix;
    }

    /**
     * @param t an instant
     * @return {@code YYYY-MM-DDTHH:MM:SSZ}, fractional seconds truncated (spec §9.2)
     */
    public static String utcSeconds(Instant t) {
        return UTC.format(t);
    }
}
