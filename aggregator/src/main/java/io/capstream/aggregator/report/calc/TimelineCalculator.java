package io.capstream.aggregator.report.calc;

import io.capstream.schemas.avro.RequestCompleted;
import io.capstream.schemas.avro.RequestFailed;
import io.capstream.schemas.avro.RequestTimeline;
import io.capstream.schemas.avro.RunStarted;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * The report's per-request timeline ({@code BenchmarkReport.timeline}, artifact key
 * {@code capstream.timeline}): one column per quantity, one element per request event (completed,
 * with or without a row, and failed), ordered by request index. Times in ms relative to the run's T0,
 * from the events' monotonic ns:
 *
 * <ul>
 *   <li>{@code start_ms = start_ns / 1e6}, {@code queue_ms = client_queue_ns / 1e6};</li>
 *   <li>completed: {@code first_token_ms = (start_ns + ttft_ns) / 1e6},
 *       {@code end_ms = (start_ns + e2e_ns) / 1e6}, {@code error_type} null;</li>
 *   <li>failed: {@code first_token_ms} null, {@code end_ms = (start_ns + elapsed_ns) / 1e6}
 *       ({@code start_ms} when {@code elapsed_ns} is unknown), {@code error_type} the event's.</li>
 * </ul>
 * O(n log n) in the number of requests (one sort). Pure function; thread-safe.
 */
public final class TimelineCalculator {
    /** {@code RunStarted.origin} of imported runs (Origins.IMPORT), whose events carry no start times. */
    private static final String IMPORT = "import";
    private static final double NS_PER_MS = 1e6;

    private TimelineCalculator() {
    }

    /** One request's timeline entry (times in ms). */
    private record Entry(int index, double startMs, double queueMs, Double firstTokenMs, double endMs,
                         String errorType) {
    }

    /**
     * @param started   the run's RunStarted; null when it never arrived (the events are then taken as live)
     * @param completed the successful requests, any order; not null
     * @param failed    the failed requests, any order; not null
     * @return the timeline; null for imported runs ({@code origin} import) and when there is no
     *     request event
     */
    public static RequestTimeline compute(RunStarted started, List<RequestCompleted> completed,
                                          List<RequestFailed> failed) {
        int n = completed.size() + failed.size();
        if (n == 0 || (started != null && IMPORT.equals(started.getOrigin()))) {
            return null;
        }
        Entry[] entries = new Entry[n];
        int i = 0;
        for (RequestCompleted c : completed) {
            long start = c.getStartNs();
            entries[i++] = new Entry(c.getRequestIndex(), start / NS_PER_MS, c.getClientQueueNs() / NS_PER_MS,
                    c.getTtftNs() < 0 ? null : (start + c.getTtftNs()) / NS_PER_MS, // none: embeddings, rerank
                    (start + c.getE2eNs()) / NS_PER_MS, null);
        }
        for (RequestFailed f : failed) {
            long start = f.getStartNs();
            long end = f.getElapsedNs() == null ? start : start + f.getElapsedNs();
            // a request the client cancelled (issue 30) keeps the first content that arrived before the cancel
            entries[i++] = new Entry(f.getRequestIndex(), start / NS_PER_MS, f.getClientQueueNs() / NS_PER_MS,
                    f.getTtftNs() == null ? null : (start + f.getTtftNs()) / NS_PER_MS, end / NS_PER_MS,
                    f.getErrorType());
        }
        Arrays.sort(entries, Comparator.comparingInt(Entry::index));
        List<Integer> index = new ArrayList<>(n);
        List<Double> startMs = new ArrayList<>(n);
        List<Double> queueMs = new ArrayList<>(n);
        List<Double> firstTokenMs = new ArrayList<>(n);
        List<Double> endMs = new ArrayList<>(n);
        List<String> errorType = new ArrayList<>(n);
        for (Entry e : entries) {
            index.add(e.index());
            startMs.add(e.startMs());
            queueMs.add(e.queueMs());
            firstTokenMs.add(e.firstTokenMs());
            endMs.add(e.endMs());
            errorType.add(e.errorType());
        }
        return RequestTimeline.newBuilder().setRequestIndex(index).setStartMs(startMs).setQueueMs(queueMs)
                .setFirstTokenMs(firstTokenMs).setEndMs(endMs).setErrorType(errorType).build();
    }
}
