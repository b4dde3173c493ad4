import com.fasterxml.jackson.databind.JsonNode;
import io.capstream.aggregator.report.calc.ReportCalculator;
import io.capstream.aggregator.report.calc.RunData;
import io.capstream.schemas.artifact.ArtifactJson;
import io.capstream.schemas.avro.BenchmarkReport;
import io.capstream.schemas.avro.RequestCompleted;
import io.capstream.schemas.avro.RunFinished;
import io.capstream.schemas.avro.RunStarted;
import io.capstream.schemas.registry.SchemaRegistryClients;
import io.capstream.schemas.serde.SpecificAvroSerde;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * Microbenchmark (no JMH): one run of REQUESTS requests with realistic (random) timings.
 * Measures per report: ReportCalculator.compute (rows, metrics, artifact JSON), ArtifactJson.write of
 * the parsed artifact tree (the generic tree writer), and SpecificAvroSerde serialize + deserialize
 * of the BenchmarkReport.
 * Usage: bench/artifact-json/run.sh [requests=1000] [iterations=400] [rounds=5]
 */
public class ArtifactJsonBench {
    static final long MS = 1_000_000L;

    public static void main(String[] args) {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
        int iters = args.length > 1 ? Integer.parseInt(args[1]) : 400;
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 5;
        Random rnd = new Random(42);
        RunStarted st = RunStarted.newBuilder()
                .setBaseUrl("http://127.0.0.1:8000/v1").setModel("test-model").setEngine("vllm")
                .setRequests(n).setConcurrency(8).setMaxTokens(256).setContextTokens(4096)
                .setMaxContextTokens(32768).setThinkingMode("disabled")
                .setPlannedContextTokens(new ArrayList<>(Collections.nCopies(n, 4096)))
                .setStartedAt("2026-08-01T12:00:00Z").setStartedAtEpochMs(1_785_585_600_000L)
                .setOrigin("live").build();
        List<RequestCompleted> done = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            long ttft = 20 * MS + (long) (rnd.nextDouble() * 300 * MS);
            long e2e = ttft + 500 * MS + (long) (rnd.nextDouble() * 3000 * MS);
            long out = 50 + rnd.nextInt(200);
            done.add(RequestCompleted.newBuilder()
                    .setRequestIndex(i).setPlannedContextTokens(4096)
                    .setTtfoNs(ttft).setTtftNs(ttft).setE2eNs(e2e)
                    .setPromptTokens(4000L + rnd.nextInt(96)).setCompletionTokens(out).setOutputTokenSource("usage")
                    .setContentChunks((int) out).setReasoningChunks(0).build());
        }
        RunFinished fin = RunFinished.newBuilder()
                .setWallClockNs(123_456_789_012L).setStartedAt("2026-08-01T12:00:00Z").setFinishedAt("2026-08-01T12:02:03Z")
                .setStartedAtEpochMs(1_785_585_600_000L).setFinishedAtEpochMs(1_785_585_723_456L)
                .setRequestsSent(n).build();
        RunData data = new RunData("bench-run", st, done, List.of(), fin, null);
        BenchmarkReport report = ReportCalculator.compute(data);
        JsonNode tree;
        try {
            tree = ArtifactJson.parse(report.getArtifactJson());
        } catch (Exception e) {
            throw new RuntimeException(e);
        }
        SpecificAvroSerde<BenchmarkReport> serde = new SpecificAvroSerde<>(BenchmarkReport.class)
                .withClient(SchemaRegistryClients.forUrl("mock://artifact-bench",
                        io.capstream.schemas.registry.RegistryClientConfig.defaults()), false);
        var ser = serde.serializer();
        var de = serde.deserializer();
        byte[] bytes = ser.serialize("reports", report);
        System.out.printf("report: %d rows, artifact %d chars, avro %d bytes, sha=%08x%n", n,
                report.getArtifactJson().length(), bytes.length, report.getArtifactJson().hashCode());
        long sink = 0;
        java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
        for (int r = 0; r < rounds; r++) {
            long c0 = mx.getCurrentThreadCpuTime();
            long t0 = System.nanoTime();
            for (int i = 0; i < iters; i++) {
                sink += ReportCalculator.compute(data).getArtifactJson().length();
            }
            long c1 = mx.getCurrentThreadCpuTime();
            long t1 = System.nanoTime();
            for (int i = 0; i < iters; i++) {
                sink += ArtifactJson.write(tree).length();
            }
            long c2 = mx.getCurrentThreadCpuTime();
            long t2 = System.nanoTime();
            for (int i = 0; i < iters; i++) {
                sink += ser.serialize("reports", report).length;
            }
            long c3 = mx.getCurrentThreadCpuTime();
            long t3 = System.nanoTime();
            for (int i = 0; i < iters; i++) {
                sink += de.deserialize("reports", bytes).getRequestTimings().size();
            }
            long c4 = mx.getCurrentThreadCpuTime();
            long t4 = System.nanoTime();
            System.out.printf("round %d (thread CPU ns per report; wall in brackets): compute %,d [%,d] | write(tree) %,d [%,d]"
                            + " | avro ser %,d [%,d] | avro de %,d [%,d]%n", r,
                    (c1 - c0) / iters, (t1 - t0) / iters, (c2 - c1) / iters, (t2 - t1) / iters,
                    (c3 - c2) / iters, (t3 - t2) / iters, (c4 - c3) / iters, (t4 - t3) / iters);
        }
        System.out.println("load average: " + String.format("%.2f",
                java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage()) + " (sink " + sink + ")");
    }
}
