package io.capstream.cli.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.capstream.schemas.avro.BenchmarkReport;
import io.capstream.schemas.avro.Distribution;
import io.capstream.schemas.avro.Metrics;
import io.capstream.schemas.avro.RunStatistics;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The console summary of an embeddings or rerank run (issue 30). */
class InputsSummaryTest {
    private static Distribution empty() {
        return Distribution.newBuilder().setCount(0).build();
    }

    @Test
    void showsRequestLatencyAndInputsPerSecondInsteadOfTtftAndDecode() {
        RunStatistics s = RunStatistics.newBuilder().setTtftMs(empty()).setTtfoMs(empty()).setE2eMs(empty())
                .setItlMs(empty()).setInterChunkMs(empty()).setRequestThroughputRps(18.7)
                .setRequestLatencyMs(Distribution.newBuilder().setCount(40).setP50(68.24).setP95(201.4).setP99(237.3)
                        .build())
                .setInputsPerS(149.9).setInputTokensPerS(35634.4).build();
        BenchmarkReport r = BenchmarkReport.newBuilder(SummaryTableTest.report(List.of(), Metrics.newBuilder().build()))
                .setStatistics(s).build();
        String text = SummaryTable.render(r, null);
        assertThat(text).as("summary").contains("""
                metric                                p50            p95            p99
                request latency (ms)                 68.2          201.4          237.3

                inputs/s          149.9 inputs/s  (input tokens 35634.4 tok/s)
                requests/s        18.7 req/s
                """);
        assertThat(text).as("summary").doesNotContain("TTFT").doesNotContain("decode").doesNotContain("throughput");
    }
}
