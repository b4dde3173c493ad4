package io.capstream.cli.report;

import io.capstream.aggregator.report.Origins;
import io.capstream.schemas.avro.RunEvent;
import io.capstream.schemas.avro.RunStarted;
import io.capstream.schemas.avro.SweepStep;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * Turns a past run's events into the events of its replay: same payloads, a new run id, event ids
 * derived from the new run id and the original event ids (so duplicates in the original stay
 * duplicates), and {@code RunStarted.origin = "replay:<original run id>"} so that the report
 * topology marks the report as {@code REPLAY} with {@code replay_of} set. A replayed step of a sweep
 * loses its {@code RunStarted.sweep}: the replay is a single run and leaves the sweep's curve alone.
 */
public final class Replays {
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmssSSS'Z'")
            .withZone(ZoneOffset.UTC);

    private Replays() {
    }

    /**
     * @param originalRunId the replayed run's id
     * @param now           time of the replay
     * @return {@code <original>-replay-<yyyyMMddTHHmmssSSSZ>}
     */
    public static String replayRunId(String originalRunId, Instant now) {
        return originalRunId + "-replay-" + STAMP.format(now);
    }

    /**
     * @param original    the original run's events, in topic order; not modified
     * @param replayRunId the new run id
     * @return copies re-keyed to the replay run id, with {@code RunStarted.sweep} null
     */
    public static List<RunEvent> rekey(List<RunEvent> original, String replayRunId) {
        return rekey(original, replayRunId, null);
    }

    /**
     * The events of one step of a replayed sweep ({@code capstream replay --sweep-id}): as
     * {@link #rekey(List, String)}, but {@code RunStarted.sweep} is kept with the replay's sweep id, so
     * that the replayed steps make a curve of their own and the original sweep's curve is left alone.
     *
     * @param original      the original step's events, in topic order; not modified
     * @param replayRunId   the step's new run id
     * @param replaySweepId the replay's sweep id; not null
     * @return copies re-keyed to the replay run id, in the replay's sweep
     */
    public static List<RunEvent> rekeyStep(List<RunEvent> original, String replayRunId, String replaySweepId) {
        return rekey(original, replayRunId, java.util.Objects.requireNonNull(replaySweepId, "replaySweepId"));
    }

    private static List<RunEvent> rekey(List<RunEvent> original, String replayRunId, String replaySweepId) {
        List<RunEvent> out = new ArrayList<>(original.size());
        for (RunEvent e : original) {
            RunEvent copy = RunEvent.newBuilder(e).build();
            String originalRunId = e.getRunId();
            copy.setRunId(replayRunId);
            copy.setEventId(UUID.nameUUIDFromBytes((replayRunId + "|" + e.getEventId())
                    .getBytes(StandardCharsets.UTF_8)).toString());
            if (copy.getPayload() instanceof RunStarted s) {
                // a replayed step of a sweep is a single run: it must not change the original sweep's curve
                SweepStep step = replaySweepId == null || s.getSweep() == null ? null
                        : SweepStep.newBuilder(s.getSweep()).setSweepId(replaySweepId).build();
                copy.setPayload(RunStarted.newBuilder(s).setOrigin(Origins.replayOf(originalRunId)).setSweep(step)
                        .build());
            }
            out.add(copy);
        }
        return out;
    }
}
