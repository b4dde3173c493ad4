package io.capstream.loadgen.servermetrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The Prometheus text parser and the common names, on a real llama-server {@code --metrics} scrape (captured
 * from the llama.cpp that node-llama-cpp 3.21.1 ships) and a vLLM-v1-style exposition.
 */
class PrometheusTextTest {
    static byte[] resource(String name) throws IOException {
        try (InputStream in = PrometheusTextTest.class.getResourceAsStream("/servermetrics/" + name)) {
            return in.readAllBytes();
        }
    }

    @Test
    void llamaServersScrapeGivesItsGaugesAndCountersUnderCommonNames() throws IOException {
        List<PrometheusSample> samples = PrometheusText.parse(resource("llamacpp-idle.prom"));
        Map<String, PrometheusSample> byName = samples.stream()
                .collect(Collectors.toMap(PrometheusSample::name, s -> s));
        assertEquals("counter", byName.get("llamacpp:prompt_tokens_total").kind());
        assertEquals("gauge", byName.get("llamacpp:requests_processing").kind());
        assertEquals(0.0, byName.get("llamacpp:requests_deferred").value());
        List<SeriesNames.Named> named = SeriesNames.name(samples);
        assertEquals(List.of("prompt_tokens", "prefix_cache_hit_tokens", "generation_tokens", "requests_running",
                        "requests_waiting"),
                named.stream().filter(n -> SeriesNames.commonName(n.source()) != null).map(SeriesNames.Named::name).toList());
        assertEquals(samples.size(), named.size(), "every llama.cpp series is kept");
        assertEquals("llamacpp:requests_processing", named.stream().filter(n -> n.name().equals("requests_running"))
                .findFirst().orElseThrow().source());
        assertThat(named).as("others pass through").anyMatch(n -> n.name().equals("llamacpp:n_decode_total"));
    }

    @Test
    void vllmSeriesGetCommonNamesHistogramsTheirSumAndCountAndNaNIsDropped() throws IOException {
        List<SeriesNames.Named> named = SeriesNames.name(PrometheusText.parse(resource("vllm-v1.prom")));
        Map<String, SeriesNames.Named> byName = named.stream().collect(Collectors.toMap(SeriesNames.Named::name, n -> n));
        assertEquals(7.0, byName.get("requests_running").value());
        assertEquals(3.0, byName.get("requests_waiting").value());
        assertEquals(0.4375, byName.get("kv_cache_usage").value());
        assertEquals(96000.0, byName.get("prefix_cache_hits").value());
        assertEquals(120000.0, byName.get("prefix_cache_queries").value());
        assertEquals("counter", byName.get("prefix_cache_hits").kind());
        // one label set: the name alone; several: one series per label set
        assertEquals(41.0, byName.get("vllm:request_success_total{engine=\"0\",finished_reason=\"stop\","
                + "model_name=\"meta-llama/Llama-3.1-8B-Instruct\"}").value());
        assertEquals(6.25, byName.get("vllm:time_to_first_token_seconds_sum").value());
        assertEquals(50.0, byName.get("vllm:time_to_first_token_seconds_count").value());
        assertThat(byName.keySet()).as("no buckets: " + byName.keySet()).noneMatch(k -> k.contains("_bucket"));
        assertThat(byName).as("NaN dropped").doesNotContainKey("vllm:spec_decode_draft_acceptance_rate");
        assertEquals(List.of("requests_running", "requests_waiting", "kv_cache_usage", "prefix_cache_queries",
                "prefix_cache_hits"), named.subList(0, 5).stream().map(SeriesNames.Named::name).toList(), "known first");
    }

    @Test
    void textThatIsNotPrometheusHasNoSamples() throws IOException {
        assertEquals(List.of(), PrometheusText.parse("<html>not found</html>\n".getBytes(StandardCharsets.UTF_8)));
        assertEquals(List.of(), PrometheusText.parse("{\"object\":\"list\"}\n".getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void aScrapeWithManySeriesKeepsTheKnownOnesAndAtMostTheCap() throws IOException {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < 100; i++) {
            b.append("# TYPE other_").append(i).append(" gauge\nother_").append(i).append(' ').append(i).append('\n');
        }
        b.append("# TYPE vllm:num_requests_running gauge\nvllm:num_requests_running 2\n");
        List<SeriesNames.Named> named = SeriesNames.name(PrometheusText.parse(b.toString().getBytes(StandardCharsets.UTF_8)));
        assertEquals(SeriesNames.MAX_SERIES, named.size());
        assertEquals("requests_running", named.get(0).name());
        assertEquals("other_0", named.get(1).name());
    }
}
