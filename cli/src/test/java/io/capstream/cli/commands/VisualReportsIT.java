package io.capstream.cli.commands;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import io.capstream.cli.CommandOutput;
import io.capstream.cli.embedded.EmbeddedKafka;
import io.capstream.cli.embedded.EmbeddedKafkaConfig;
import io.capstream.schemas.artifact.ArtifactJson;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 13 end to end on an embedded broker shared by the commands, the in-memory registry and the
 * built-in simulated engine: {@code run --html --csv}, a second run with injected failures, then
 * {@code report RUN_ID} (from capstream.reports) and {@code report FILE}, and {@code compare FILE RUN_ID}.
 * One test: each run is a whole benchmark.
 */
class VisualReportsIT {
    @TempDir
    Path tmp;

    private static List<Map<String, String>> csvRows(Path csv) throws Exception {
        CsvMapper mapper = new CsvMapper();
        try (MappingIterator<Map<String, String>> it = mapper.readerForMapOf(String.class)
                .with(mapper.schemaWithHeader()).readValues(csv.toFile())) {
            return it.readAll();
        }
    }

    @Test
    @Timeout(300)
    void runWritesThePageAndTheCsvThenReportAndCompareReadFilesAndRunIds() throws Exception {
        String registry = "mock://visual-reports-it-" + UUID.randomUUID();
        try (EmbeddedKafka kafka = EmbeddedKafka.start(EmbeddedKafkaConfig.defaults())) {
            String bs = kafka.bootstrapServers();
            Path a = tmp.resolve("a.json");
            Path aHtml = tmp.resolve("pages/new/a.html");
            Path aCsv = tmp.resolve("pages/new/a.csv");
            CommandOutput runA = CommandOutput.run("run", "--requests", "6", "--concurrency", "2", "--ctx-tokens", "256",
                    "--max-tokens", "8", "--client-warmup", "0", "--output", a.toString(), "--html", aHtml.toString(),
                    "--csv", aCsv.toString(), "--bootstrap-servers", bs, "--schema-registry-url", registry);
            assertEquals(0, runA.exitCode(), runA.err());
            assertThat(runA.out()).contains("\nhtml: " + aHtml + "\ncsv: " + aCsv + "\n");
            assertThat(Files.readString(aHtml)).as("the page, in a directory created for it")
                    .startsWith("<!DOCTYPE html>");
            List<Map<String, String>> rowsA = csvRows(aCsv);
            assertEquals(6, rowsA.size());
            assertEquals(List.of("0", "1", "2", "3", "4", "5"), rowsA.stream().map(r -> r.get("request_index")).toList());
            assertThat(rowsA).allMatch(r -> r.get("status").equals("ok") && !r.get("ttft_ms").isEmpty());

            // B: more load and injected failures; read back from capstream.reports by its run id
            Path b = tmp.resolve("b.json");
            CommandOutput runB = CommandOutput.run("run", "--requests", "8", "--concurrency", "4", "--ctx-tokens", "256",
                    "--max-tokens", "8", "--client-warmup", "0", "--sim-error-rate", "0.5", "--sim-seed", "7",
                    "--output", b.toString(), "--bootstrap-servers", bs, "--schema-registry-url", registry);
            JsonNode reportB = ArtifactJson.read(b);
            String runIdB = reportB.path("run_id").asText();
            int failed = reportB.path("failed").asInt();
            assertEquals(failed > 0 ? 1 : 0, runB.exitCode(), runB.err());
            Path bCsv = tmp.resolve("b.csv");
            Path bHtml = tmp.resolve("b.html");
            CommandOutput reportOfB = CommandOutput.run("report", runIdB, "--csv", bCsv.toString(), "--html", bHtml.toString(),
                    "--bootstrap-servers", bs, "--schema-registry-url", registry);
            assertEquals(0, reportOfB.exitCode(), reportOfB.err());
            assertThat(reportOfB.out()).contains("run               " + runIdB);
            assertThat(reportOfB.out()).endsWith("html: " + bHtml + "\ncsv: " + bCsv + "\n");
            List<Map<String, String>> rowsB = csvRows(bCsv);
            assertEquals(8, rowsB.size(), "one row per request, the failures included");
            assertEquals(failed, rowsB.stream().filter(r -> r.get("status").equals("failed")).count());
            rowsB.stream().filter(r -> r.get("status").equals("failed")).forEach(r ->
                    assertTrue(!r.get("error_type").isEmpty() && r.get("ttft_ms").isEmpty(), r.toString()));

            // a report file: the summary and its artifact written again
            Path rJson = tmp.resolve("report/a.json");
            CommandOutput reportOfA = CommandOutput.run("report", a.toString(), "--json", rJson.toString());
            assertEquals(0, reportOfA.exitCode(), reportOfA.err());
            assertThat(reportOfA.out()).contains("TTFT (ms)");
            assertThat(reportOfA.out()).endsWith("json: " + rJson + "\n");
            assertEquals(Files.readString(a), Files.readString(rJson), "--json writes the artifact as the run did");

            CommandOutput unknown = CommandOutput.run("report", "no-such-run", "--bootstrap-servers", bs, "--schema-registry-url",
                    registry);
            assertEquals(2, unknown.exitCode(), unknown.err());
            assertThat(unknown.err()).contains("capstream report: no report for run id no-such-run on capstream.reports",
                    "--schema-registry-url " + registry + " is an in-memory registry of this process only");

            // compare a file with a run id
            Path cHtml = tmp.resolve("compare.html");
            CommandOutput compare = CommandOutput.run("compare", a.toString(), runIdB, "--html", cHtml.toString(),
                    "--bootstrap-servers", bs, "--schema-registry-url", registry);
            assertEquals(0, compare.exitCode(), compare.err());
            for (String line : List.of("TTFT p50", "TTFT p99", "E2E p95", "ITL p50", "output throughput", "completed",
                    "failed")) {
                assertThat(compare.out()).as(line + ":\n" + compare.out()).contains("\n" + line + " ");
            }
            assertThat(compare.out()).contains("\nB  " + runIdB + "\n");
            assertThat(compare.out()).contains("workload differences:", "\n  concurrency ");
            assertThat(compare.out()).endsWith("html: " + cHtml + "\n");
            String page = Files.readString(cHtml);
            assertThat(page).contains("data-chart=\"ttft-cdf\"", "data-chart=\"e2e-cdf\"");
        }
    }
}
