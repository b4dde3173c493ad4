package io.capstream.aggregator.importer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.capstream.aggregator.report.calc.ReportCalculator;
import io.capstream.schemas.artifact.ArtifactGeneration;
import io.capstream.schemas.artifact.ArtifactJson;
import io.capstream.schemas.avro.BenchmarkReport;
import io.capstream.schemas.avro.ReportKind;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The seed and every artifact with rows in the corpus, imported and recomputed: every metric equals
 * the file's own (1e-9 relative), percentiles and rows bit for bit.
 */
class CorpusRecomputeTest {

    /** @return the repository's testdata/ (system property capstream.testdata.dir, set by the parent pom, else ../testdata) */
    static Path shared() {
        String p = System.getProperty("capstream.testdata.dir");
        Path dir = p != null ? Path.of(p) : Path.of("..", "testdata");
        return Files.isDirectory(dir) ? dir : Path.of("testdata");
    }

    static List<Path> withTimings() throws IOException {
        try (Stream<Path> s = Files.list(shared().resolve("corpus/anvil/with-timings"))) {
            return s.filter(p -> p.toString().endsWith(".json")).sorted().toList();
        }
    }

    record Outcome(boolean metricsMatch, boolean percentilesExact, int rows, int rowsExact,
                   boolean referenceTextIdentical, List<MetricComparison.Mismatch> mismatches) {
    }

    static Outcome recompute(Path file) throws Exception {
        String text = Files.readString(file, StandardCharsets.UTF_8);
        ImportPlan plan = ArtifactImporter.plan(file);
        assertTrue(!plan.summaryOnly(), file + " should be recomputable");
        BenchmarkReport report = ReportCalculator.compute(plan.toRunData(0L));
        JsonNode expected = ArtifactJson.parse(text);
        JsonNode actual = ArtifactJson.parse(report.getArtifactJson());
        List<MetricComparison.Mismatch> mismatches = MetricComparison.compare(expected, actual);

        boolean pctExact = true;
        for (Iterator<Map.Entry<String, JsonNode>> it = expected.get("metrics").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            if (e.getKey().contains("_p50") || e.getKey().contains("_p95")) {
                JsonNode a = actual.get("metrics").get(e.getKey());
                if (e.getValue().isNull() ? !a.isNull()
                        : Double.doubleToRawLongBits(e.getValue().doubleValue()) != Double.doubleToRawLongBits(a.doubleValue())) {
                    pctExact = false;
                }
            }
        }
        // rows: every key the file's row has must be bit-identical in ours
        int rowsExact = 0;
        JsonNode er = expected.get("request_timings");
        JsonNode ar = actual.get("request_timings");
        for (int i = 0; i < er.size(); i++) {
            boolean same = true;
            for (Iterator<String> k = er.get(i).fieldNames(); k.hasNext(); ) {
                String key = k.next();
                if (!er.get(i).get(key).equals(ar.get(i).get(key))) {
                    same = false;
                }
            }
            rowsExact += same ? 1 : 0;
        }
        ObjectNode withoutCapstream = ((ObjectNode) actual.deepCopy()).without(ReportCalculator.CAPSTREAM_KEY);
        String base = text.endsWith("\n") ? text : text + "\n";
        boolean identical = ArtifactJson.write(withoutCapstream).equals(base);
        return new Outcome(mismatches.isEmpty(), pctExact, er.size(), rowsExact, identical, mismatches);
    }

    @Test
    void seedMatchesExactlyAndItsTopLevelKeysAreOursMinusCapstream() throws Exception {
        Path seed = shared().resolve("corpus/seed-example.json");
        Outcome o = recompute(seed);
        assertTrue(o.metricsMatch(), o.mismatches().toString());
        assertTrue(o.percentilesExact());
        assertEquals(10, o.rowsExact());
        assertTrue(o.referenceTextIdentical(), "seed re-emitted byte for byte (without the capstream key)");

        BenchmarkReport r = ReportCalculator.compute(ArtifactImporter.plan(seed).toRunData(0L));
        JsonNode ours = ArtifactJson.parse(r.getArtifactJson());
        TreeSet<String> ourKeys = new TreeSet<>();
        ours.fieldNames().forEachRemaining(ourKeys::add);
        TreeSet<String> seedKeys = new TreeSet<>();
        ArtifactJson.read(seed).fieldNames().forEachRemaining(seedKeys::add);
        assertTrue(ourKeys.remove(ReportCalculator.CAPSTREAM_KEY));
        assertEquals(seedKeys, ourKeys);
        assertEquals(27, seedKeys.size());
        assertEquals(ReportKind.IMPORTED, r.getProvenance().getKind());
        assertEquals("seed-example.json", r.getProvenance().getSourceFile());
        assertTrue(r.getProvenance().getComplete());
        assertEquals(67.88809373669967, r.getMetrics().getThroughputTokS());
        assertEquals(664.3758000573143, r.getMetrics().getE2eP50Ms());
        assertEquals(747.0614000922069, r.getMetrics().getE2eP95Ms());
        assertEquals("benchmark-20260821T144904Z", r.getRunId());
    }

    @Test
    void everyWithTimingsArtifactMatches() throws Exception {
        List<Path> files = withTimings();
        assertEquals(59, files.size());
        int matched = 0;
        int pctExact = 0;
        int rows = 0;
        int rowsExact = 0;
        int identical = 0;
        List<String> failures = new ArrayList<>();
        for (Path f : files) {
            Outcome o = recompute(f);
            matched += o.metricsMatch() ? 1 : 0;
            pctExact += o.percentilesExact() ? 1 : 0;
            rows += o.rows();
            rowsExact += o.rowsExact();
            identical += o.referenceTextIdentical() ? 1 : 0;
            if (!o.metricsMatch() || !o.percentilesExact() || o.rows() != o.rowsExact()) {
                failures.add(f.getFileName() + ": " + o.mismatches() + " pctExact=" + o.percentilesExact()
                        + " rows " + o.rowsExact() + "/" + o.rows());
            }
        }
        System.out.printf("corpus with-timings: %d/%d metrics matched, %d/%d percentiles bit-exact, rows %d/%d"
                        + " bit-exact, %d/%d re-emitted byte-identical (current shape files can be)%n",
                matched, files.size(), pctExact, files.size(), rowsExact, rows, identical, files.size());
        assertEquals(List.of(), failures);
        assertEquals(59, matched);
    }

    @Test
    void allFailedV3ArtifactWithEmptyRowsIsRecomputed() throws Exception {
        Path f = shared().resolve(
                "corpus/anvil/summary-only/2026-08-02-deepseek-0731-native-kv-offload__prefix-sequence-256k-70k.json");
        ImportPlan plan = ArtifactImporter.plan(f);
        assertEquals(ArtifactGeneration.CAPACITY_V3, plan.generation());
        Outcome o = recompute(f);
        assertTrue(o.metricsMatch(), o.mismatches().toString());
        BenchmarkReport r = ReportCalculator.compute(plan.toRunData(0L));
        assertEquals(0L, r.getMetrics().getOutputTokens());
        assertEquals(0.0, r.getMetrics().getThroughputTokS());
        assertEquals("capacity-v3", r.getMeasurementProtocol());
        assertEquals(1, r.getFailed());
        System.out.println("all-failed v3 re-emitted byte-identical: " + o.referenceTextIdentical());
    }

    @Test
    void everySummaryOnlyArtifactImportsUnchanged() throws Exception {
        int summaries = 0;
        int recomputable = 0;
        try (Stream<Path> s = Files.list(shared().resolve("corpus/anvil/summary-only"))) {
            for (Path f : s.filter(p -> p.toString().endsWith(".json")).sorted().toList()) {
                ImportPlan plan = ArtifactImporter.plan(f);
                if (plan.summaryOnly()) {
                    summaries++;
                    BenchmarkReport r = plan.summaryReport();
                    assertEquals(Files.readString(f, StandardCharsets.UTF_8), r.getArtifactJson());
                    assertEquals(ReportKind.IMPORTED_SUMMARY, r.getProvenance().getKind());
                    assertNotNull(r.getMetrics());
                    assertEquals(plan.runId(), r.getRunId());
                } else {
                    recomputable++;
                }
            }
        }
        assertEquals(177, summaries);
        assertEquals(1, recomputable);
    }
}
