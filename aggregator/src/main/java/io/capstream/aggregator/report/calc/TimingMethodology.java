package io.capstream.aggregator.report.calc;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The {@code timing_methodology} object (spec §9.2): constant English descriptions, copied verbatim
 * from the example artifact {@code corpus/seed-example.json} (the post-2026-08-01 wording of the
 * reference). Used when {@code RunStarted.timing_methodology} is null.
 */
public final class TimingMethodology {
    /** The current wording; unmodifiable. */
    public static final Map<String, String> CURRENT;

    static {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("clock", "client time.perf_counter");
        m.put("decode", "usage completion tokens after the first token divided by client-observed generation time;"
                + " completion tokens may include reasoning tokens");
        m.put("effective_prefill", "usage.prompt_tokens divided by client-observed time to first output;"
                + " includes queueing, scheduling, prefill, and first-token work");
        m.put("generation", "client-observed E2E minus time to first output");
        m.put("mean_inter_token_latency", "client-observed generation time divided by completion tokens after the"
                + " first token; not a raw per-token timestamp trace");
        m.put("time_to_first_output", "request start through the first non-empty streamed reasoning or content delta");
        m.put("ttft", "request start through the first non-empty streamed content delta");
        CURRENT = Collections.unmodifiableMap(m);
    }

    private TimingMethodology() {
    }
}
