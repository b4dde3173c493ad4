package io.capstream.cli.check;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The outcome of {@code capstream check}: the findings in order and whether the endpoint can be measured by the
 * protocol (it streams SSE with output deltas to the end: {@code streaming} and {@code content_deltas} are not
 * {@link Finding.Verdict#FAIL}), with the reason when not.
 *
 * @param baseUrl    the base URL checked, as the console and reports show it (user-info masked as {@code ***@})
 * @param model      the model id
 * @param endpoint   the {@code --endpoint} label
 * @param findings   the findings, keys unique, in order; never null
 * @param measurable whether a run can measure the endpoint
 * @param reason     why not (the first failing finding's detail, or the first streamed request's time-out), or null
 *                   when measurable
 */
public record CheckReport(String baseUrl, String model, String endpoint, List<Finding> findings, boolean measurable,
                          String reason) {
    /** Copies the findings. */
    public CheckReport {
        findings = List.copyOf(findings);
    }

    /**
     * Reads the exchanges into findings.
     *
     * @param target the endpoint checked; not null
     * @param o      its exchanges; not null
     * @return the report
     */
    public static CheckReport of(ProbeTarget target, Observations o) {
        List<Finding> all = new ArrayList<>();
        all.addAll(StreamFindings.of(o, target.endpoint() == io.capstream.loadgen.workload.ApiEndpoint.COMPLETIONS));
        all.addAll(UsageFindings.of(o));
        all.addAll(ReasoningFindings.of(o));
        all.addAll(LimitFindings.of(o, target.model()));
        all.addAll(ServerFindings.of(o, target.metricsUrl()));
        all = new ArrayList<>(CutStreams.mark(all, o)); // before the implied options, which read them
        all.add(Implications.of(byKey(all), o, target.endpoint().label()));
        if (!o.basic().ok()) {
            all = Unobserved.mark(all, "the first streamed request got " + Answers.outcome(o.basic()));
        }
        Finding fail = all.stream().filter(f -> f.verdict() == Finding.Verdict.FAIL).findFirst().orElse(null);
        if (fail == null && Answers.timedOut(o.basic())) { // slow, not broken: say so, not "not measurable"
            return new CheckReport(target.baseUrl(), target.model(), target.endpoint().label(), all, false,
                    "the first streamed request got " + Answers.outcome(o.basic()));
        }
        return new CheckReport(target.baseUrl(), target.model(), target.endpoint().label(), all, fail == null,
                fail == null ? null : fail.key() + ": " + fail.detail());
    }

    /**
     * @param shown the base URL as shown (user-info masked)
     * @return this report naming {@code shown} as its base URL
     */
    public CheckReport withBaseUrl(String shown) {
        return new CheckReport(shown, model, endpoint, findings, measurable, reason);
    }

    /** @return the findings by key, in order */
    public Map<String, Finding> byKey() {
        return byKey(findings);
    }

    private static Map<String, Finding> byKey(List<Finding> list) {
        Map<String, Finding> m = new LinkedHashMap<>();
        list.forEach(f -> m.put(f.key(), f));
        return m;
    }

    /** What precedes the implied options in a {@link #verdictLine()}: {@value}. */
    static final String IMPLIES = "; implies ";

    /**
     * @return the one-line verdict, e.g. {@code measurable: streams SSE, role chunk first, usage when asked;
     *         implies --no-thinking}, {@code not measurable: <reason>}, or {@code timed out: <reason>} when the first
     *         streamed request got no complete answer within the check's bound per exchange
     */
    public String verdictLine() {
        if (!measurable) {
            return (reason.contains(Answers.TIMED_OUT) ? "timed out: " : "not measurable: ") + reason;
        }
        Map<String, Finding> k = byKey();
        List<String> parts = new ArrayList<>();
        parts.add("streams " + value(k, "streaming"));
        parts.add("role chunk first " + value(k, "role_chunk_first"));
        parts.add("usage when asked " + value(k, "usage_when_asked"));
        if (!"nothing".equals(value(k, "before_first_token"))) {
            parts.add("before the first token: " + value(k, "before_first_token"));
        }
        if (!"none seen".equals(value(k, "error_in_stream"))) {
            parts.add("errors in 200 streams");
        }
        String implied = value(k, "implied_options");
        return "measurable: " + String.join(", ", parts) + ("none".equals(implied) ? "" : IMPLIES + implied);
    }

    private static String value(Map<String, Finding> k, String key) {
        Finding f = k.get(key);
        return f == null ? "n/a" : f.value();
    }
}
