package io.capstream.aggregator.report.calc;

import io.capstream.schemas.avro.ExactSeconds;
import io.capstream.schemas.avro.RequestCompleted;
import io.capstream.schemas.avro.RequestTiming;

/**
 * Derives a {@code request_timings[]} row from a {@code RequestCompleted} with the formulas of spec
 * §7, in seconds first and then {@code x 1000.0}, like the reference, so that rounding matches.
 *
 * <p>Times: from {@code exact_seconds} when present (imports: those doubles are used as is), else
 * {@code *_ns / 1e9}. A null time to first output means "equal to TTFT" (early-v3 imports).
 */
public final class RowCalculator {
    /** Token source for usage-reported completion tokens. */
    public static final String SOURCE_USAGE = "usage";
    /** Token source of the content-chunk fallback. */
    public static final String SOURCE_CONTENT_CHUNKS = "content_chunks";
    /** Token source when none was recorded. */
    public static final String SOURCE_UNKNOWN = "unknown";

    private RowCalculator() {
    }

    /**
     * Raw seconds of one request.
     *
     * @param ttfo time to first output, s
     * @param ttft time to first content, s
     * @param e2e end to end, s
     */
    public record Seconds(double ttfo, double ttft, double e2e) {
        /** @return true when the §7 validity filter accepts these times */
        public boolean valid() {
            return Double.isFinite(ttft) && Double.isFinite(e2e) && Double.isFinite(ttfo)
                    && ttft >= 0 && e2e >= ttft && ttfo >= 0 && ttfo <= ttft;
        }
    }

    /**
     * @param c the event, not null
     * @return its times in seconds (exact_seconds when present, else ns / 1e9)
     */
    public static Seconds seconds(RequestCompleted c) {
        ExactSeconds es = c.getExactSeconds();
        if (es != null) {
            double ttft = es.getTtftS();
            double ttfo = es.getTtfoS() != null ? es.getTtfoS() : ttft;
            return new Seconds(ttfo, ttft, es.getE2eS());
        }
        double ttft = c.getTtftNs() / 1e9;
        double ttfo = c.getTtfoNs() != null ? c.getTtfoNs() / 1e9 : ttft;
        return new Seconds(ttfo, ttft, c.getE2eNs() / 1e9);
    }

    /**
     * The output-token source actually in effect: {@code usage} requires completion tokens; a
     * {@code usage} event without them falls back to {@code content_chunks} (spec §4.3).
     *
     * @param c the event
     * @return usage, content_chunks or unknown
     */
    public static String effectiveSource(RequestCompleted c) {
        String s = c.getOutputTokenSource();
        if (s == null || s.isEmpty()) {
            return SOURCE_UNKNOWN;
        }
        if (SOURCE_USAGE.equals(s) && (c.getCompletionTokens() == null || c.getCompletionTokens() < 0)) {
            return SOURCE_CONTENT_CHUNKS;
        }
        return s;
    }

    /**
     * {@code out_toks} of spec §4.3: completion tokens for source usage, content chunks otherwise.
     *
     * @param c the event
     * @return output tokens counted for the run totals
     */
    public static long outTokens(RequestCompleted c) {
        return SOURCE_USAGE.equals(effectiveSource(c)) ? c.getCompletionTokens() : c.getContentChunks();
    }

    /**
     * Derives the row: the one place where the §7 row values are computed, straight into the typed
     * Avro row (the artifact's {@code request_timings[]} entry is mapped from it by the schema).
     *
     * @param c the event, not null
     * @return the row (times in ms, rates in tokens/s), or null when the times fail the §7 validity
     *     filter (no row, no percentile input)
     */
    public static RequestTiming timing(RequestCompleted c) {
        Seconds s = seconds(c);
        if (!s.valid()) {
            return null;
        }
        String source = effectiveSource(c);
        Long prompt = c.getPromptTokens() != null && c.getPromptTokens() >= 0 ? c.getPromptTokens() : null;
        Long out = SOURCE_USAGE.equals(source) ? c.getCompletionTokens() : null;
        double generation = s.e2e() - s.ttfo();
        Double prefill = prompt != null && s.ttfo() != 0 ? prompt.doubleValue() / s.ttfo() : null;
        Double decode = null;
        Double itl = null;
        if (out != null && out - 1 > 0 && generation > 0) {
            decode = (double) (out - 1) / generation;
            itl = generation * 1000 / (double) (out - 1);
        }
        // the all-fields constructor, in the schema's field order: the same record as its builder gives, without
        // the builder's per-field validation and field-array copy (issue 31: 8% of the window path's re-keying)
        return new RequestTiming(c.getRequestIndex(), c.getPlannedContextTokens(), prompt, out, source,
                s.ttfo() * 1000.0, s.ttft() * 1000.0, generation * 1000.0, (s.e2e() - s.ttft()) * 1000.0,
                s.e2e() * 1000.0, prefill, decode, itl, c.getReasoningChunks(), c.getContentChunks());
    }
}
