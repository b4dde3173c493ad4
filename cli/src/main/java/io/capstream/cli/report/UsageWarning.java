package io.capstream.cli.report;

import io.capstream.schemas.avro.Metrics;
import java.util.Map;

/**
 * The warning of a run whose completed requests came without a usage chunk: spec §4.3 and §7 count output tokens
 * only from {@code usage} (else the content chunks), so throughput, the decode rate and ITL are left empty for those
 * requests. Read from {@code metrics.output_token_sources}. The run's summary ({@link SummaryTable}) and each sweep
 * step print the same line. Stateless.
 */
public final class UsageWarning {
    private UsageWarning() {
    }

    /**
     * @param m         the report's metrics, or null
     * @param completed the report's completed requests
     * @return the warning without a {@code warning: } prefix, one line; null when every completed request had a usage
     *     chunk, or when the report says nothing of the token sources (imports of older artifacts)
     */
    public static String of(Metrics m, int completed) {
        Map<String, Integer> sources = m == null ? null : m.getOutputTokenSources();
        if (sources == null || completed <= 0) {
            return null;
        }
        int withUsage = sources.getOrDefault("usage", 0);
        if (withUsage >= completed) {
            return null;
        }
        String what = withUsage == 0 ? "throughput, decode and ITL are empty: the endpoint sent no usage chunk"
                : (completed - withUsage) + " of " + completed + " completed requests came without a usage chunk and"
                        + " have no throughput, decode or ITL";
        return what + " (it does not honour stream_options.include_usage; spec 4.3 and 7 count tokens from usage"
                + " only; TTFT and E2E are measured): 'capstream check' shows what the endpoint sends";
    }
}
