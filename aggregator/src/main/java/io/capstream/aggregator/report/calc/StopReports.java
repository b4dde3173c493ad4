package io.capstream.aggregator.report.calc;

import io.capstream.schemas.avro.RunFinished;
import io.capstream.schemas.avro.RunStarted;
import io.capstream.schemas.avro.RunStop;
import io.capstream.schemas.avro.StopReport;
import java.util.Map;

/**
 * The report's {@code stopped} (artifact key {@code capstream.stopped}, issue 30) from the workers'
 * {@code RunFinished.stopped}: which stop rule ended the run early, when, what was true, and how many planned
 * requests it did not send. Stateless.
 */
public final class StopReports {
    /** The rule a worker records when its coordinator stopped it because another worker tripped a rule. */
    public static final String COORDINATOR = "coordinator";

    private StopReports() {
    }

    /**
     * @param finished the run's RunFinished events (one per worker share), any order; not null
     * @return the stop that ended the run: the earliest ({@code at_ms}) of the workers' own rules, else the
     *         earliest coordinator stop; null when none says it was stopped
     */
    public static RunStop first(Iterable<RunFinished> finished) {
        RunStop own = null;
        RunStop coordinator = null;
        for (RunFinished f : finished) {
            RunStop s = f == null ? null : f.getStopped();
            if (s == null) {
                continue;
            }
            if (COORDINATOR.equals(s.getRule())) {
                coordinator = earlier(coordinator, s);
            } else {
                own = earlier(own, s);
            }
        }
        return own != null ? own : coordinator;
    }

    private static RunStop earlier(RunStop a, RunStop b) {
        return a == null || b.getAtMs() < a.getAtMs() ? b : a;
    }

    /**
     * @param st      the run's RunStarted, or null
     * @param fin     the run's RunFinished (in a distributed run, the one whose {@code stopped} is {@link #first}),
     *                or null
     * @param ran     requests that ran (completed + failed in the report)
     * @param workers the run's workers with their RunFinished, or null (then one worker stopped)
     * @return the report's stop; null when the run was not stopped
     */
    static StopReport of(RunStarted st, RunFinished fin, int ran, Map<String, WorkerEvents> workers) {
        RunStop s = fin == null ? null : fin.getStopped();
        if (s == null) {
            return null;
        }
        Integer notSent = st == null || st.getDurationS() != null ? null : Math.max(0, st.getRequests() - ran);
        int stoppedWorkers = 0;
        if (workers != null) {
            for (WorkerEvents w : workers.values()) {
                if (w.finished() != null && w.finished().getStopped() != null) {
                    stoppedWorkers++;
                }
            }
        }
        return StopReport.newBuilder().setRule(s.getRule()).setAtMs(s.getAtMs()).setDetail(s.getDetail())
                .setRequestsEnded(s.getRequestsEnded()).setRequestsNotSent(notSent)
                .setWorkersStopped(Math.max(1, stoppedWorkers)).build();
    }
}
