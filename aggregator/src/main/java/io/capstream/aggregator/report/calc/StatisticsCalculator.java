package io.capstream.aggregator.report.calc;

import io.capstream.schemas.avro.Distribution;
import io.capstream.schemas.avro.Metrics;
import io.capstream.schemas.avro.RequestCompleted;
import io.capstream.schemas.avro.RequestTiming;
import io.capstream.schemas.avro.RunStatistics;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * The report's full statistics ({@code BenchmarkReport.statistics}, artifact key
 * {@code capstream.statistics}), beyond the anvil metrics, which stay as they are. Formulas from the
 * schema docs of {@code RunStatistics} and {@code Distribution}:
 *
 * <ul>
 *   <li>{@code ttft_ms}, {@code e2e_ms}: {@link Distributions} over the rows (successful requests
 *       passing the §7 validity filter), ms; {@code ttfo_ms} and {@code itl_ms} (the row's
 *       {@code mean_inter_token_latency_ms}) over the rows where they are non-null, ms;</li>
 *   <li>{@code inter_chunk_ms}: every gap of {@code RequestCompleted.output_chunk_gaps_us} of the
 *       successful requests that have a row, {@code us / 1000.0} ms (vLLM's per-token ITL, AIPerf's
 *       inter-chunk latency); {@code inter_chunk_gaps_dropped}: the sum of their
 *       {@code output_chunk_gaps_dropped}; {@code inter_chunk_histogram}: the same gaps in
 *       logarithmic buckets ({@link InterChunkHistogram}, null without gaps);</li>
 *   <li>{@code request_throughput_rps} = completed / wall s, req/s;
 *       {@code output_throughput_tok_s} = {@code metrics.throughput_tok_s}, tokens/s;
 *       {@code total_token_throughput_tok_s} = (sum of {@code prompt_tokens} of the successful
 *       requests that report them + {@code metrics.output_tokens}) / wall s, tokens/s, null when
 *       {@code metrics.output_tokens} is null (not every source is usage). All three are null without
 *       a usable wall clock (null, 0 s or not finite: {@link WallClock#usable}).</li>
 *   <li>{@code request_latency_ms}, {@code inputs_per_s}, {@code input_tokens_per_s}: {@link InputsStatistics}
 *       (embeddings and rerank runs only).</li>
 *   <li>{@code server_ttft_ms}, {@code client_minus_server_ttft_ms}, {@code server_view}: {@link ServerViewCalculator}
 *       (issue 33).</li>
 * </ul>
 * Pure function; thread-safe.
 */
public final class StatisticsCalculator {
    private StatisticsCalculator() {
    }

    /**
     * @param rows        the report's rows (any order); not null
     * @param successes   every successful request (with or without a row); not null
     * @param metrics     the report's anvil metrics, computed from the same requests; not null
     * @param wallSeconds the run's wall clock, s; null when unknown
     * @return the statistics, never null
     */
    public static RunStatistics compute(List<RequestTiming> rows, List<RequestCompleted> successes, Metrics metrics,
                                        Double wallSeconds) {
        Set<Integer> withRow = new HashSet<>();
        for (RequestTiming r : rows) {
            withRow.add(r.getRequestIndex());
        }
        int gapCount = 0;
        long dropped = 0;
        long promptSum = 0;
        for (RequestCompleted c : successes) {
            if (c.getPromptTokens() != null && c.getPromptTokens() >= 0) {
                promptSum += c.getPromptTokens();
            }
            if (withRow.contains(c.getRequestIndex())) {
                gapCount += c.getOutputChunkGapsUs() == null ? 0 : c.getOutputChunkGapsUs().size();
                dropped += c.getOutputChunkGapsDropped();
            }
        }
        double[] gaps = new double[gapCount];
        int g = 0;
        for (RequestCompleted c : successes) {
            if (c.getOutputChunkGapsUs() != null && withRow.contains(c.getRequestIndex())) {
                for (Integer us : c.getOutputChunkGapsUs()) {
                    gaps[g++] = us / 1000.0;
                }
            }
        }
        boolean wallUsable = WallClock.usable(wallSeconds);
        Long outputTokens = metrics.getOutputTokens();
        return InputsStatistics.addTo(ServerViewCalculator.addTo(RunStatistics.newBuilder()
                .setTtftMs(column(rows, RequestTiming::getTtftMs))
                .setTtfoMs(column(rows, RequestTiming::getTimeToFirstOutputMs))
                .setE2eMs(column(rows, RequestTiming::getE2eMs))
                .setItlMs(column(rows, RequestTiming::getMeanInterTokenLatencyMs))
                .setInterChunkMs(Distributions.of(gaps))
                .setInterChunkGapsDropped(dropped)
                .setInterChunkHistogram(InterChunkHistogram.of(gaps))
                .setRequestThroughputRps(wallUsable ? successes.size() / wallSeconds : null)
                .setOutputThroughputTokS(wallUsable ? metrics.getThroughputTokS() : null)
                .setTotalTokenThroughputTokS(wallUsable && outputTokens != null
                        ? (promptSum + outputTokens) / wallSeconds : null)
                .setHttpPhases(HttpPhaseCalculator.compute(successes)), successes)
                .build(), successes, wallSeconds);
    }

    private static Distribution column(List<RequestTiming> rows, Function<RequestTiming, Double> value) {
        List<Double> values = new ArrayList<>(rows.size());
        for (RequestTiming r : rows) {
            values.add(value.apply(r));
        }
        return Distributions.of(values);
    }
}
