package io.capstream.aggregator.report.calc;

import io.capstream.schemas.avro.LoadHealth;
import io.capstream.schemas.avro.RequestCompleted;
import io.capstream.schemas.avro.RequestFailed;
import io.capstream.schemas.avro.RunFinished;
import io.capstream.schemas.avro.RunStarted;
import io.capstream.schemas.stats.NearestRank;
import java.util.List;

/**
 * Offered against achieved load ({@code BenchmarkReport.load}, artifact key {@code capstream.load})
 * from the request events' scheduled and actual starts; formulas from the schema doc of
 * {@code LoadHealth}, over every request event (RequestCompleted and RequestFailed), n of them:
 *
 * <ul>
 *   <li>{@code scheduled_rate_rps} (open loop) = (n - 1) / (last - first {@code scheduled_start_ns}),
 *       {@code achieved_rate_rps} = (n - 1) / (last - first {@code start_ns}), req/s; null with
 *       n &lt; 2 or a zero span;</li>
 *   <li>{@code queue_p50_ms}, {@code queue_p99_ms} (nearest rank, spec §8.1), {@code queue_max_ms}
 *       of {@code client_queue_ns / 1e6}, ms;</li>
 *   <li>{@code offered_rate_rps} = {@code RunStarted.rate_rps} (open loop only);
 *       {@code offered_concurrency} = {@code concurrency} (closed loop) or {@code max_in_flight}
 *       (open loop);</li>
 *   <li>{@code achieved_concurrency} = (sum of completed {@code e2e_ns} + failed {@code elapsed_ns})
 *       / wall clock ns (Little's law); null without a usable wall clock ({@link WallClock#usable});</li>
 *   <li>{@code behind_schedule} (open loop only) = achieved_rate_rps &lt; {@value #BEHIND_FACTOR}
 *       x scheduled_rate_rps, or the largest client queue time exceeds
 *       {@value #QUEUE_SHARE} of the scheduled span (first to last scheduled start);</li>
 *   <li>issue 30: {@code interarrival_cv} and {@code configured_interarrival_cv} ({@link InterarrivalCv}),
 *       {@code stages} per {@code --rate-schedule} segment ({@link LoadStagesCalculator}) and
 *       {@code steady_state} ({@link SteadyStateCalculator}).</li>
 * </ul>
 * Pure function; thread-safe.
 */
public final class LoadHealthCalculator {
    /** Arrival name of the closed loop (load-generator ArrivalMode wire names: closed, constant, poisson). */
    public static final String CLOSED = "closed";
    /** A run is behind its schedule when it achieved less than this share of the scheduled rate. */
    public static final double BEHIND_FACTOR = 0.95;
    /** ... or when a request waited in the client longer than this share of the scheduled span. */
    public static final double QUEUE_SHARE = 0.05;
    private static final String IMPORT = "import";

    private LoadHealthCalculator() {
    }

    /**
     * @param started   the run's RunStarted; null when it never arrived (then treated as a closed loop
     *                  without a configured concurrency)
     * @param completed the successful requests; not null
     * @param failed    the failed requests; not null
     * @param finished  the run's RunFinished (its wall clock: {@code wall_clock_s} when present, else
     *                  {@code wall_clock_ns}); null when it has not arrived
     * @return the load health; null for imported runs ({@code origin} import: their events carry no
     *     schedule) and when there is no request event
     */
    public static LoadHealth compute(RunStarted started, List<RequestCompleted> completed, List<RequestFailed> failed,
                                     RunFinished finished) {
        int n = completed.size() + failed.size();
        if (n == 0 || (started != null && IMPORT.equals(started.getOrigin()))) {
            return null;
        }
        String arrival = started == null || started.getArrival() == null ? CLOSED : started.getArrival();
        boolean open = !CLOSED.equals(arrival);
        long minScheduled = Long.MAX_VALUE;
        long maxScheduled = Long.MIN_VALUE;
        long minStart = Long.MAX_VALUE;
        long maxStart = Long.MIN_VALUE;
        double[] queueMs = new double[n];
        long maxQueueNs = Long.MIN_VALUE;
        double busyNs = 0;
        int i = 0;
        for (RequestCompleted c : completed) {
            minScheduled = Math.min(minScheduled, c.getScheduledStartNs());
            maxScheduled = Math.max(maxScheduled, c.getScheduledStartNs());
            minStart = Math.min(minStart, c.getStartNs());
            maxStart = Math.max(maxStart, c.getStartNs());
            maxQueueNs = Math.max(maxQueueNs, c.getClientQueueNs());
            queueMs[i++] = c.getClientQueueNs() / 1e6;
            busyNs += c.getE2eNs();
        }
        for (RequestFailed f : failed) {
            minScheduled = Math.min(minScheduled, f.getScheduledStartNs());
            maxScheduled = Math.max(maxScheduled, f.getScheduledStartNs());
            minStart = Math.min(minStart, f.getStartNs());
            maxStart = Math.max(maxStart, f.getStartNs());
            maxQueueNs = Math.max(maxQueueNs, f.getClientQueueNs());
            queueMs[i++] = f.getClientQueueNs() / 1e6;
            busyNs += f.getElapsedNs() == null ? 0 : f.getElapsedNs();
        }
        long scheduledSpan = maxScheduled - minScheduled;
        Double scheduledRate = open ? rate(n, scheduledSpan) : null;
        Double achievedRate = rate(n, maxStart - minStart);
        boolean behind = open && ((scheduledRate != null && achievedRate != null
                && achievedRate < BEHIND_FACTOR * scheduledRate)
                || (scheduledSpan > 0 && maxQueueNs > QUEUE_SHARE * scheduledSpan));
        Double wallNs = finished == null ? null
                : finished.getWallClockS() != null ? finished.getWallClockS() * 1e9 : (double) finished.getWallClockNs();
        List<RequestSpan> spans = RequestSpan.of(completed, failed);
        Integer offeredConcurrency = null;
        if (started != null) {
            offeredConcurrency = open ? started.getMaxInFlight() : Integer.valueOf(started.getConcurrency());
        }
        return LoadHealth.newBuilder()
                .setArrival(arrival)
                .setOfferedRateRps(open && started != null ? started.getRateRps() : null)
                .setScheduledRateRps(scheduledRate)
                .setAchievedRateRps(achievedRate)
                .setBehindSchedule(behind)
                .setQueueP50Ms(NearestRank.percentile(queueMs, 50))
                .setQueueP99Ms(NearestRank.percentile(queueMs, 99))
                .setQueueMaxMs(maxQueueNs / 1e6)
                .setOfferedConcurrency(offeredConcurrency)
                .setAchievedConcurrency(WallClock.usable(wallNs) ? busyNs / wallNs : null)
                .setInterrupted(finished != null && finished.getInterrupted())
                .setInterarrivalCv(InterarrivalCv.achieved(spans))
                .setConfiguredInterarrivalCv(started == null ? null
                        : InterarrivalCv.configured(arrival, started.getBurstiness()))
                .setStages(started == null ? null : LoadStagesCalculator.compute(started.getRateSchedule(), spans))
                .setSteadyState(SteadyStateCalculator.compute(!open,
                        started == null ? null : started.getSteadyState(), spans))
                .build();
    }

    /** (n - 1) / span, req/s; null with fewer than 2 requests or a span &lt;= 0. */
    private static Double rate(int n, long spanNs) {
        if (n < 2 || spanNs <= 0) {
            return null;
        }
        return (n - 1) / (spanNs / 1e9);
    }
}
