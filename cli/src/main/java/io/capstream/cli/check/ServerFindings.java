package io.capstream.cli.check;

import io.capstream.loadgen.client.ProbeExchange;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * What the server says about itself: a prefix cache visible in usage on a repeated prompt ({@code prefix_cache}),
 * per-request server timings (llama.cpp's {@code timings}, else a {@code Server-Timing} header; {@code server_timings}), and Prometheus metrics at the
 * server root ({@code metrics}).
 */
final class ServerFindings {
    private ServerFindings() {
    }

    /** @param o the exchanges; @param metricsUrl where the metrics were asked for @return the findings, in order */
    static List<Finding> of(Observations o, String metricsUrl) {
        return List.of(prefixCache(o), timings(o), metrics(o.metrics(), metricsUrl));
    }

    private static Finding prefixCache(Observations o) {
        StreamShape first = new StreamShape(o.basic());
        StreamShape again = new StreamShape(o.repeat());
        int cached = again.cachedTokens();
        if (cached < 0) {
            return Finding.of("prefix_cache", Finding.Verdict.INFO, "not visible", "the repeated prompt's usage has no"
                    + " prompt_tokens_details.cached_tokens (nor timings.cache_n)");
        }
        if (cached > 0) {
            return Finding.of("prefix_cache", Finding.Verdict.INFO, "visible", "cached tokens " + first.cachedTokens()
                    + " on the first request, " + cached + " on the same prompt again: runs that repeat prompts measure"
                    + " the cache");
        }
        return Finding.of("prefix_cache", Finding.Verdict.INFO, "0 cached", "cached tokens reported, but 0 on the"
                + " same prompt again (no prefix cache, or it is not reported)");
    }

    private static Finding timings(Observations o) {
        JsonNode t = new StreamShape(o.basic()).timings();
        String header = o.basic().headers().entrySet().stream()
                .filter(h -> h.getKey().equalsIgnoreCase("server-timing")).map(java.util.Map.Entry::getValue)
                .findFirst().orElse(null);
        if (t == null && header != null) {
            return Finding.of("server_timings", Finding.Verdict.INFO, "Server-Timing", "a Server-Timing header: "
                    + Answers.cut(header) + " (a ttft or time_to_first_token entry becomes the server's TTFT)");
        }
        if (t == null) {
            return Finding.of("server_timings", Finding.Verdict.INFO, "no", "no per-request timings object in the"
                    + " stream and no Server-Timing header");
        }
        List<String> names = new ArrayList<>();
        t.fieldNames().forEachRemaining(names::add);
        return Finding.of("server_timings", Finding.Verdict.INFO, "yes", "timings {" + Answers.cut(String.join(", ",
                names)) + "}: the server's own prompt and decode times per request");
    }

    private static Finding metrics(ProbeExchange e, String url) {
        String text = e.ok() ? e.bodyText() : "";
        boolean prometheus = text.contains("# TYPE ") || text.contains("# HELP ");
        if (prometheus) {
            return Finding.of("metrics", Finding.Verdict.INFO, "yes", "Prometheus text at " + url
                    + " (--server-metrics auto scrapes it)");
        }
        return Finding.of("metrics", Finding.Verdict.INFO, "no", url + ": " + (e.ok()
                ? "not Prometheus text" : Answers.outcome(e)));
    }
}
