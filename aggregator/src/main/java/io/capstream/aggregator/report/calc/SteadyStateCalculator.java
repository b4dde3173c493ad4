package io.capstream.aggregator.report.calc;

import io.capstream.schemas.avro.SteadyState;
import io.capstream.schemas.load.SteadyStateWindow;
import io.capstream.schemas.stats.NearestRank;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The steady-state view of a run ({@code LoadHealth.steady_state}, issue 30): the run between its ramp-up and its
 * drain, where a closed loop holds its whole load.
 *
 * <p>The window is {@code RunStarted.steady_state} ({@code --steady-state START:END}, rule {@value #RULE_GIVEN})
 * when set, for any arrival; otherwise, for a closed loop only, the automatic rule {@value #RULE_AUTO}:
 * <ul>
 *   <li>start = the first instant the in-flight count reaches its peak over the run (the slot count once every
 *       slot is busy: after {@code --ramp-up}, or just after T0 without one);</li>
 *   <li>end = the last actual request start: after it no slot is refilled, so the in-flight count falls below the
 *       slot count for good (the drain).</li>
 * </ul>
 * This is the interval in which a closed loop of c slots really offers c requests in flight; before it the slots
 * are still filling, after it they empty one by one and throughput falls with them although the endpoint is not
 * slower. (It follows the usual practice of measuring only the "steady state" between warm-up and cool-down, as
 * GuideLLM's {@code --warmup}/{@code --cooldown} and inference-perf's stages do, but from the run's own events
 * instead of a fixed share.) With no time between the two (every request started at once, or fewer requests than
 * slots) there is no steady state: null.
 *
 * <p>Over the window {@code [s, e]} (length L = e - s): {@code requests} = completed requests that ended in it;
 * {@code request_throughput_rps} = requests / L; {@code output_throughput_tok_s} = their completion tokens / L (null
 * when one has no usage); {@code achieved_concurrency} = the time every request (failures too) spent in flight
 * inside the window / L; {@code ttft_p50_ms}/{@code ttft_p95_ms} = nearest-rank percentiles (spec §8.1) of the TTFT
 * of the completed requests that started in the window. Pure function.
 */
final class SteadyStateCalculator {
    /** Rule name of the automatic window. */
    static final String RULE_AUTO = "all-slots-busy-to-last-start";
    /** Rule name of a window given by {@code --steady-state}. */
    static final String RULE_GIVEN = "steady-state";

    private SteadyStateCalculator() {
    }

    /**
     * @param closed      whether the run is a closed loop
     * @param steadyState {@code RunStarted.steady_state} ({@code START:END} seconds), or null for the automatic rule
     * @param spans       every request of the run; not null
     * @return the steady state; null for an open loop without a window, without requests, with a window that cannot
     *     be read, or when the automatic rule finds no time between ramp-up and drain
     */
    static SteadyState compute(boolean closed, String steadyState, List<RequestSpan> spans) {
        if (spans.isEmpty()) {
            return null;
        }
        long startNs;
        long endNs;
        String rule;
        if (steadyState != null) {
            SteadyStateWindow w;
            try {
                w = SteadyStateWindow.parse(steadyState);
            } catch (IllegalArgumentException e) {
                return null;
            }
            startNs = Math.round(w.startS() * 1e9);
            endNs = Math.round(w.endS() * 1e9);
            rule = RULE_GIVEN;
        } else if (closed) {
            startNs = peakStart(spans);
            endNs = spans.stream().mapToLong(RequestSpan::startNs).max().orElse(0);
            rule = RULE_AUTO;
        } else {
            return null;
        }
        if (endNs <= startNs) {
            return null;
        }
        return over(startNs, endNs, rule, spans);
    }

    /** @return the first instant the in-flight count reaches its maximum (ends before starts at one instant) */
    static long peakStart(List<RequestSpan> spans) {
        long[][] ev = new long[spans.size() * 2][];
        int i = 0;
        for (RequestSpan s : spans) {
            ev[i++] = new long[] {s.startNs(), 1};
            ev[i++] = new long[] {Math.max(s.endNs(), s.startNs()), -1};
        }
        Arrays.sort(ev, (a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
        int inFlight = 0;
        int peak = 0;
        long at = ev[0][0];
        for (long[] e : ev) {
            inFlight += (int) e[1];
            if (inFlight > peak) {
                peak = inFlight;
                at = e[0];
            }
        }
        return at;
    }

    private static SteadyState over(long s, long e, String rule, List<RequestSpan> spans) {
        double lengthS = (e - s) / 1e9;
        int requests = 0;
        long tokens = 0;
        boolean allUsage = true;
        double busyNs = 0;
        List<Double> ttft = new ArrayList<>();
        for (RequestSpan r : spans) {
            long end = Math.max(r.endNs(), r.startNs());
            busyNs += Math.max(0, Math.min(end, e) - Math.max(r.startNs(), s));
            if (!r.completed()) {
                continue;
            }
            if (end >= s && end <= e) {
                requests++;
                if (r.completionTokens() == null) {
                    allUsage = false;
                } else {
                    tokens += r.completionTokens();
                }
            }
            if (r.startNs() >= s && r.startNs() <= e && r.ttftMs() != null) {
                ttft.add(r.ttftMs());
            }
        }
        return SteadyState.newBuilder().setStartS(s / 1e9).setEndS(e / 1e9).setRule(rule).setRequests(requests)
                .setRequestThroughputRps(requests / lengthS)
                .setOutputThroughputTokS(allUsage ? tokens / lengthS : null)
                .setAchievedConcurrency(busyNs / 1e9 / lengthS)
                .setTtftP50Ms(NearestRank.percentile(ttft, 50))
                .setTtftP95Ms(NearestRank.percentile(ttft, 95))
                .build();
    }
}
