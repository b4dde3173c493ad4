package io.capstream.loadgen.servermetrics;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Gives the engines' known series common names, so that runs against vLLM, SGLang, llama.cpp and the
 * simulated engine read alike: {@code requests_running}, {@code requests_waiting}, {@code kv_cache_usage}
 * (0..1), {@code kv_cache_tokens}, {@code prefix_cache_hits} / {@code prefix_cache_queries} (counters),
 * {@code prefix_cache_hit_rate}, {@code prefix_cache_hit_tokens}, {@code preemptions}, {@code prompt_tokens},
 * {@code generation_tokens}. Other series keep their own names. A name exposed with several label sets
 * becomes one series per label set, named {@code name{k="v",...}}. Stateless.
 */
public final class SeriesNames {
    /** Most series a scrape keeps (the known ones first, then the others in exposition order). */
    public static final int MAX_SERIES = 64;

    private static final Map<String, String> COMMON = table();

    private static Map<String, String> table() {
        Map<String, String> t = new LinkedHashMap<>();
        // vLLM (v0 and v1 names)
        common(t, "requests_running", "vllm:num_requests_running");
        common(t, "requests_waiting", "vllm:num_requests_waiting");
        common(t, "kv_cache_usage", "vllm:kv_cache_usage_perc", "vllm:gpu_cache_usage_perc");
        common(t, "prefix_cache_hits", "vllm:prefix_cache_hits", "vllm:prefix_cache_hits_total",
                "vllm:gpu_prefix_cache_hits", "vllm:gpu_prefix_cache_hits_total");
        common(t, "prefix_cache_queries", "vllm:prefix_cache_queries", "vllm:prefix_cache_queries_total",
                "vllm:gpu_prefix_cache_queries", "vllm:gpu_prefix_cache_queries_total");
        common(t, "prefix_cache_hit_rate", "vllm:gpu_prefix_cache_hit_rate");
        common(t, "preemptions", "vllm:num_preemptions", "vllm:num_preemptions_total");
        common(t, "prompt_tokens", "vllm:prompt_tokens", "vllm:prompt_tokens_total");
        common(t, "generation_tokens", "vllm:generation_tokens", "vllm:generation_tokens_total");
        // SGLang
        common(t, "requests_running", "sglang:num_running_reqs");
        common(t, "requests_waiting", "sglang:num_queue_reqs");
        common(t, "kv_cache_usage", "sglang:token_usage");
        common(t, "kv_cache_tokens", "sglang:num_used_tokens");
        common(t, "prefix_cache_hit_rate", "sglang:cache_hit_rate");
        common(t, "prompt_tokens", "sglang:prompt_tokens_total", "sglang:prompt_tokens");
        common(t, "generation_tokens", "sglang:generation_tokens_total", "sglang:generation_tokens");
        // llama.cpp (llama-server --metrics)
        common(t, "requests_running", "llamacpp:requests_processing");
        common(t, "requests_waiting", "llamacpp:requests_deferred");
        common(t, "kv_cache_usage", "llamacpp:kv_cache_usage_ratio");
        common(t, "kv_cache_tokens", "llamacpp:kv_cache_tokens");
        common(t, "prefix_cache_hit_tokens", "llamacpp:prompt_tokens_cached_total");
        common(t, "prompt_tokens", "llamacpp:prompt_tokens_total");
        common(t, "generation_tokens", "llamacpp:tokens_predicted_total");
        // capstream's simulated engine
        common(t, "requests_running", "capstream_sim:requests_running");
        common(t, "requests_waiting", "capstream_sim:requests_waiting");
        common(t, "generation_tokens", "capstream_sim:generation_tokens_total");
        return java.util.Collections.unmodifiableMap(t);
    }

    private SeriesNames() {
    }

    private static void common(Map<String, String> t, String name, String... engineNames) {
        for (String e : engineNames) {
            t.put(e, name);
        }
    }

    /**
     * @param engineName a series name as an engine exposes it
     * @return its common name, or null when it has none
     */
    public static String commonName(String engineName) {
        return COMMON.get(engineName);
    }

    /**
     * One named value of a scrape.
     *
     * @param name   the series name (common, or the engine's own)
     * @param source the engine's name, with its labels when the name has several label sets
     * @param kind   gauge or counter
     * @param value  the value
     */
    public record Named(String name, String source, String kind, double value) {
    }

    /**
     * @param samples a scrape's samples in exposition order; not null
     * @return at most {@link #MAX_SERIES} named values, the known series first; NaN values are dropped
     */
    public static List<Named> name(List<PrometheusSample> samples) {
        Map<String, List<PrometheusSample>> byName = new LinkedHashMap<>();
        for (PrometheusSample s : samples) {
            if (!Double.isNaN(s.value())) {
                byName.computeIfAbsent(s.name(), k -> new ArrayList<>()).add(s);
            }
        }
        List<Named> known = new ArrayList<>();
        List<Named> other = new ArrayList<>();
        java.util.Set<String> taken = new java.util.HashSet<>();
        for (Map.Entry<String, List<PrometheusSample>> e : byName.entrySet()) {
            String common = COMMON.get(e.getKey());
            String base = common == null ? e.getKey() : common;
            List<PrometheusSample> sets = e.getValue();
            for (PrometheusSample s : sets) {
                String suffix = sets.size() == 1 ? "" : labels(s.labels());
                String name = base + suffix;
                if (!taken.add(name)) {
                    continue; // two engine names with one common name: the first one exposed wins
                }
                Named n = new Named(name, s.name() + suffix, s.kind(), s.value());
                (common == null ? other : known).add(n);
            }
        }
        List<Named> out = new ArrayList<>(known);
        out.addAll(other);
        return out.size() > MAX_SERIES ? List.copyOf(out.subList(0, MAX_SERIES)) : out;
    }

    private static String labels(Map<String, String> labels) {
        return new TreeMap<>(labels).entrySet().stream()
                .map(e -> e.getKey() + "=\"" + e.getValue() + "\"")
                .collect(Collectors.joining(",", "{", "}"));
    }
}
