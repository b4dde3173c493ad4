package io.capstream.cli.report;

import io.capstream.aggregator.report.Origins;
import io.capstream.schemas.avro.RunEvent;
import io.capstream.schemas.avro.RunStarted;
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
 * topology marks the report as {@code REPLAY} with {@code replay_of} set.
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
     * @return copies re-keyed to the replay run id
     */
    public static List<RunEvent> rekey(List<RunEvent> original, String replayRunId) {
        List<RunEvent> out = new ArrayList<>(original.size());
        for (RunEvent e : original) {
            RunEvent copy = RunEvent.newBuilder(e).build();
            String originalRunId = e.getRunId();
            copy.setRunId(replayRunId);
            copy.setEventId(UUID.nameUUIDFromBytes((replayRunId + "|" + e.getEventId())
                    .getBytes(StandardCharsets.UTF_8)).toString());
            if (copy.getPayload() instanceof RunStarted s) {
                copy.setPayload(RunStarted.newBuilder(s).setOrigin(Origins.replayOf(originalRunId)).build());
            }
            out.add(copy);
        }
        return out;
    }
}
