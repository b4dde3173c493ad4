package io.capstream.aggregator.report.calc;

import io.capstream.schemas.avro.ClientCheck;
import io.capstream.schemas.avro.RunFinished;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The self-check a distributed run's report carries ({@code capstream.client}): the RunFinished the report is built
 * from (the last worker's) keeps its own measurements, but whether the client may have distorted the numbers is
 * every worker's say: {@code distorted} is true when any worker's is, and {@code warnings} holds every worker's
 * warnings, each prefixed with its worker id ({@code "w2: event-loop delay p99 ..."}). A one-worker run is
 * unchanged. Pure functions; thread-safe.
 */
public final class WorkerClientChecks {
    private WorkerClientChecks() {
    }

    /**
     * @param latest   the RunFinished the report is built from; null when none arrived
     * @param byWorker every RunFinished of the run by worker id; not null
     * @return {@code latest}, or a copy whose client check says every worker's distortion
     */
    public static RunFinished withEveryWorkersWarnings(RunFinished latest, Map<String, RunFinished> byWorker) {
        if (latest == null || latest.getClientCheck() == null || byWorker.size() < 2) {
            return latest;
        }
        boolean distorted = false;
        List<String> warnings = new ArrayList<>();
        for (Map.Entry<String, RunFinished> e : new TreeMap<>(byWorker).entrySet()) {
            ClientCheck c = e.getValue().getClientCheck();
            if (c == null) {
                continue;
            }
            distorted |= c.getDistorted();
            if (c.getWarnings() != null) {
                c.getWarnings().forEach(w -> warnings.add(e.getKey() + ": " + w));
            }
        }
        ClientCheck merged = ClientCheck.newBuilder(latest.getClientCheck()).setDistorted(distorted)
                .setWarnings(warnings).build();
        return RunFinished.newBuilder(latest).setClientCheck(merged).build();
    }
}
