package io.capstream.aggregator.report.calc;

import io.capstream.schemas.avro.ClientCheck;
import io.capstream.schemas.avro.RequestCompleted;
import io.capstream.schemas.avro.RequestFailed;
import io.capstream.schemas.avro.RunEvent;
import io.capstream.schemas.avro.RunFinished;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.zip.DataFormatException;
import org.HdrHistogram.Histogram;

/**
 * The statistics of a worker's self-check ({@code capstream.client}), computed from the raw data the generator sends:
 * the event-loop delay percentiles from {@code ClientCheck.delay_histogram} (HdrHistogram's
 * {@code getValueAtPercentile}, ns / 1e6), the client-queueing percentiles from the worker's request events'
 * {@code client_queue_ns} (recorded, clamped to 0..1 h, into an HdrHistogram of 3 significant digits, as the
 * generator did), and {@code distorted} with one warning per condition under which the client may have added to the
 * measured times:
 * <ul>
 *   <li>event-loop delay p99 above {@value #DELAY_P99_LIMIT_MS} ms (with at least {@value #MIN_DELAY_SAMPLES} samples);</li>
 *   <li>an event-loop thread on CPU for at least {@value #LOOP_BUSY_LIMIT} of the wall clock (a saturated core);</li>
 *   <li>a GC pause longer than {@value #GC_PAUSE_LIMIT_MS} ms;</li>
 *   <li>a target on the generator's machine, its CPUs at least {@value #MACHINE_BUSY_LIMIT} busy, and capstream using
 *       at least {@value #SHARE_LIMIT} of them: the client competed with the engine.</li>
 * </ul>
 * A check without {@code delay_histogram} (an older generator's, which computed these itself) is kept as it came.
 * The queueing is over the request events that reached the aggregator: a request whose event was not delivered is
 * not in it (the generator's own count included it). Pure functions; thread-safe.
 */
public final class ClientCheckCalculator {
    /** Event-loop delay p99 above which the report is flagged, ms. */
    public static final double DELAY_P99_LIMIT_MS = 5.0;
    /** Share of the wall clock one event loop may be on CPU before it counts as saturated. */
    public static final double LOOP_BUSY_LIMIT = 0.9;
    /** Longest GC pause before the report is flagged, ms. */
    public static final double GC_PAUSE_LIMIT_MS = 5.0;
    /** Machine CPU share above which the CPUs count as saturated. */
    public static final double MACHINE_BUSY_LIMIT = 0.95;
    /** Share of the machine's CPU time that capstream may take from a local engine on saturated CPUs. */
    public static final double SHARE_LIMIT = 0.05;
    /** Delay samples (ms of probed time) below which the delay percentiles are too few to warn on. */
    public static final long MIN_DELAY_SAMPLES = 100;
    private static final long MAX_QUEUE_NS = 3_600_000_000_000L;

    private ClientCheckCalculator() {
    }

    /**
     * @param finishedEvents the run's RunFinished events; not null
     * @param requestEvents  the run's request events (RequestCompleted, RequestFailed); not null
     * @return the same events in the same order, each RunFinished's client check computed from its worker's (and
     *         share's) request events by {@link #compute}; a check whose delay_histogram cannot be decoded is kept
     *         without it and without statistics
     */
    public static List<RunEvent> computed(List<RunEvent> finishedEvents, List<RunEvent> requestEvents) {
        List<RunEvent> out = new ArrayList<>(finishedEvents.size());
        for (RunEvent ev : finishedEvents) {
            RunFinished f = (RunFinished) ev.getPayload();
            if (f.getClientCheck() == null || f.getClientCheck().getDelayHistogram() == null) {
                out.add(ev);
                continue;
            }
            ClientCheck c;
            try {
                c = compute(f.getClientCheck(), f.getWallClockNs(), queueNs(ev.getWorkerId(), f, requestEvents));
            } catch (IllegalArgumentException e) {
                // a histogram that cannot be read must not cost the run its report: the check without statistics
                c = ClientCheck.newBuilder(f.getClientCheck()).setDelayHistogram(null).build();
            }
            out.add(RunEvent.newBuilder(ev).setPayload(RunFinished.newBuilder(f).setClientCheck(c).build()).build());
        }
        return out;
    }

    /** The client_queue_ns of the request events of the worker (and, in a distributed run, the share) of f. */
    private static long[] queueNs(String workerId, RunFinished f, List<RunEvent> requestEvents) {
        boolean byShare = f.getShare() != null && f.getShares() != null && f.getShares() > 0;
        long[] q = new long[requestEvents.size()];
        int n = 0;
        for (RunEvent e : requestEvents) {
            long queue;
            int index;
            if (e.getPayload() instanceof RequestCompleted c) {
                queue = c.getClientQueueNs();
                index = c.getRequestIndex();
            } else if (e.getPayload() instanceof RequestFailed x) {
                queue = x.getClientQueueNs();
                index = x.getRequestIndex();
            } else {
                continue;
            }
            if (workerId.equals(e.getWorkerId()) && (!byShare || Math.floorMod(index, f.getShares()) == f.getShare())) {
                q[n++] = queue;
            }
        }
        return java.util.Arrays.copyOf(q, n);
    }

    /**
     * @param raw     a check as a current generator sends it (with {@code delay_histogram}); not null
     * @param wallNs  the run's wall clock of that worker (RunFinished.wall_clock_ns), ns
     * @param queueNs client_queue_ns of that worker's request events, ns; not null
     * @return {@code raw} with the delay and queueing percentiles, {@code distorted} and {@code warnings} set, and
     *         {@code delay_histogram} cleared (it is not part of the report)
     * @throws IllegalArgumentException when {@code delay_histogram} is not an HdrHistogram compressed encoding
     */
    public static ClientCheck compute(ClientCheck raw, long wallNs, long[] queueNs) {
        Histogram delays = decode(raw.getDelayHistogram());
        Double delayP99 = delays.getTotalCount() == 0 ? null : delays.getValueAtPercentile(99) / 1e6;
        ClientCheck.Builder b = ClientCheck.newBuilder(raw)
                .setDelayHistogram(null)
                .setDelayP50Ms(delays.getTotalCount() == 0 ? null : delays.getValueAtPercentile(50) / 1e6)
                .setDelayP99Ms(delayP99)
                .setDelayMaxMs(delays.getTotalCount() == 0 ? null : delays.getMaxValue() / 1e6);
        if (queueNs.length > 0) {
            Histogram q = new Histogram(MAX_QUEUE_NS, 3);
            for (long v : queueNs) {
                q.recordValue(Math.min(MAX_QUEUE_NS, Math.max(0, v)));
            }
            b.setQueueP50Ms(q.getValueAtPercentile(50) / 1e6).setQueueP99Ms(q.getValueAtPercentile(99) / 1e6)
                    .setQueueMaxMs(q.getMaxValue() / 1e6);
        } else {
            b.setQueueP50Ms(null).setQueueP99Ms(null).setQueueMaxMs(null);
        }
        List<String> warnings = warnings(raw, wallNs, delayP99, delays.getTotalCount());
        return b.setDistorted(!warnings.isEmpty()).setWarnings(warnings).build();
    }

    private static List<String> warnings(ClientCheck c, long wallNs, Double delayP99, long delaySamples) {
        List<String> warnings = new ArrayList<>();
        if (delayP99 != null && delayP99 > DELAY_P99_LIMIT_MS && delaySamples >= MIN_DELAY_SAMPLES) {
            warnings.add(String.format(Locale.ROOT, "event-loop delay p99 %.1f ms > %.0f ms: chunks may have been"
                    + " timestamped up to that late", delayP99, DELAY_P99_LIMIT_MS));
        }
        Double busyMax = c.getCpuEventLoopBusyMax();
        if (busyMax != null && busyMax >= LOOP_BUSY_LIMIT) {
            warnings.add(String.format(Locale.ROOT, "an event loop was on CPU %.0f%% of the run: the client saturated"
                    + " a core", 100 * busyMax));
        }
        if (c.getGcPauseMaxMs() > GC_PAUSE_LIMIT_MS) {
            warnings.add(String.format(Locale.ROOT, "GC paused the client for up to %.1f ms", c.getGcPauseMaxMs()));
        }
        Double machineBusy = c.getCpuMachineBusy();
        Double processMs = c.getCpuProcessMs();
        if (Boolean.TRUE.equals(c.getTargetLocal()) && machineBusy != null && processMs != null && wallNs > 0
                && machineBusy >= MACHINE_BUSY_LIMIT) {
            double share = processMs * 1e6 / ((double) wallNs * c.getCpuCores());
            if (share >= SHARE_LIMIT) {
                warnings.add(String.format(Locale.ROOT, "this machine's CPUs were %.0f%% busy (by anything) and"
                        + " capstream used %.0f%% of them: a target on this machine may have run slower",
                        100 * machineBusy, 100 * share));
            }
        }
        return warnings;
    }

    private static Histogram decode(ByteBuffer encoded) {
        try {
            return Histogram.decodeFromCompressedByteBuffer(encoded.duplicate(), 0);
        } catch (DataFormatException | RuntimeException e) {
            throw new IllegalArgumentException("client_check.delay_histogram is not an HdrHistogram encoding: " + e, e);
        }
    }
}
