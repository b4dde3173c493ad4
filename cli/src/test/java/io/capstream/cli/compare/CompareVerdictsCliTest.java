package io.capstream.cli.compare;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.capstream.cli.CapstreamMain;
import io.capstream.cli.config.ConfigDefaultProvider;
import io.capstream.schemas.artifact.ArtifactJson;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code capstream compare} with noise-aware verdicts (issue 32) on report files of real sim runs (200 requests
 * each, trimmed to the columns compare reads; src/test/resources/compare/README.md says how they were made):
 * two runs of the same workload, and runs at --sim-ttft-ms 100 and 250.
 */
class CompareVerdictsCliTest {
    @TempDir
    Path dir;

    private record Outcome(int code, String out, String err) {
    }

    private static Outcome compare(String... args) {
        String[] full = new String[args.length + 1];
        full[0] = "compare";
        System.arraycopy(args, 0, full, 1, args.length);
        CommandLine cmd = CapstreamMain.newCommandLine(ConfigDefaultProvider.fromArgs(full, Map.of()));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cmd.setOut(new PrintWriter(out, true));
        cmd.setErr(new PrintWriter(err, true));
        int code = cmd.execute(full);
        return new Outcome(code, out.toString(), err.toString());
    }

    private static String fixture(String name) {
        try {
            return Path.of(CompareVerdictsCliTest.class.getResource("/compare/" + name).toURI()).toString();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static JsonNode json(Outcome o) throws Exception {
        return ArtifactJson.parse(o.out());
    }

    @Test
    void twoRunsOfTheSameWorkloadAreWithinNoiseInJson() throws Exception {
        Outcome o = compare("--json", fixture("same-a.json"), fixture("same-b.json"));
        assertThat(o.code()).as("exit code; stderr %s", o.err()).isZero();
        JsonNode p50 = json(o).path("metrics").path("ttft_p50_ms");
        assertThat(p50.path("verdict").asText()).as("ttft_p50_ms of %s", p50).isEqualTo("within noise");
        assertThat(p50.path("a").asDouble()).as("A's TTFT p50 (the report's)").isEqualTo(835.506018);
        assertThat(p50.path("b").asDouble()).as("B's TTFT p50").isEqualTo(833.998756);
        assertThat(p50.path("difference").asDouble()).as("difference").isCloseTo(833.998756 - 835.506018,
                org.assertj.core.data.Offset.offset(1e-9));
        assertThat(p50.path("interval").size()).as("interval of %s", p50).isEqualTo(2);
        double low = p50.path("interval").get(0).asDouble();
        double high = p50.path("interval").get(1).asDouble();
        assertThat(low).as("interval [%s, %s] reaches below 0", low, high).isNegative();
        assertThat(high).as("interval [%s, %s] reaches above 0", low, high).isPositive();
        JsonNode p99 = json(o).path("metrics").path("ttft_p99_ms");
        assertThat(p99.path("interval").isNull()).as("p99 of 200 requests: no interval, %s", p99).isTrue();
        assertThat(p99.path("verdict").isNull()).as("p99 verdict").isTrue();
        assertThat(p99.path("reason").asText()).as("p99 reason").contains("too few for a 95% interval of p99");
        assertThat(json(o).path("metrics").path("throughput_tok_s").path("reason").asText())
                .as("run-level throughput").isEqualTo("one number per run: no interval");
    }

    @Test
    void aSlowerTtftIsARegressionAndFailsTheGateWithExitThree() throws Exception {
        Outcome o = compare("--json", "--fail-on-regression", "ttft_p50_ms", "--fail-on-regression",
                "e2e_p50_ms:1%", fixture("ttft100.json"), fixture("ttft250.json"));
        JsonNode p50 = json(o).path("metrics").path("ttft_p50_ms");
        assertThat(p50.path("verdict").asText()).as("ttft_p50_ms of %s", p50).isEqualTo("regression");
        assertThat(p50.path("interval").get(0).asDouble()).as("low end of %s", p50).isGreaterThan(100);
        assertThat(o.code()).as("exit code; stderr %s", o.err()).isEqualTo(RegressionGate.EXIT_REGRESSION);
        assertThat(o.err()).as("stderr").contains("capstream compare: ttft_p50_ms regressed: ");
    }

    @Test
    void aThresholdTheWholeIntervalDoesNotPassDoesNotFail() {
        Outcome o = compare("--fail-on-regression", "ttft_p50_ms:500%", fixture("ttft100.json"),
                fixture("ttft250.json"));
        assertThat(o.code()).as("exit code; stderr %s", o.err()).isZero();
        assertThat(o.out()).as("table").contains("95% interval of B-A").containsPattern("TTFT p50 .* regression");
    }

    @Test
    void unknownMetricIsAOneLineUsageError() {
        Outcome o = compare("--fail-on-regression", "ttft_p50", fixture("same-a.json"), fixture("same-b.json"));
        assertThat(o.code()).as("exit code").isEqualTo(2);
        assertThat(o.err().strip().lines().toList()).as("stderr lines").hasSize(1);
        assertThat(o.err()).as("stderr").startsWith("capstream compare: --fail-on-regression: unknown metric"
                + " 'ttft_p50' (metrics with a verdict: ttft_p50_ms, ");
        assertThat(o.out()).as("stdout").isEmpty();
        Outcome bad = compare("--fail-on-regression", "ttft_p50_ms:fast", fixture("same-a.json"),
                fixture("same-b.json"));
        assertThat(bad.code()).as("bad threshold exit code").isEqualTo(2);
        assertThat(bad.err()).as("stderr").contains("THRESHOLD must be a relative change >= 0 such as 10%");
        // a number without % (ms or a share of A?) is refused, not read as 500 % (found by a fresh-user pass)
        Outcome bare = compare("--fail-on-regression", "ttft_p50_ms:500", fixture("same-a.json"),
                fixture("same-b.json"));
        assertThat(bare.code()).as("threshold without a percent sign: exit code, stderr " + bare.err()).isEqualTo(2);
        assertThat(bare.err()).as("stderr").contains("--fail-on-regression ttft_p50_ms:500: THRESHOLD must be");
    }

    @Test
    void reportsWithoutPerRequestSamplesGetNoVerdict() throws Exception {
        ObjectNode a = (ObjectNode) ArtifactJson.read(Path.of(fixture("ttft100.json")));
        a.remove("request_timings");
        Path stripped = dir.resolve("summary-only.json");
        Files.writeString(stripped, a.toString());
        Outcome o = compare("--json", "--fail-on-regression", "ttft_p50_ms", stripped.toString(),
                fixture("ttft250.json"));
        assertThat(o.code()).as("no verdict cannot fail; stderr %s", o.err()).isZero();
        JsonNode p50 = json(o).path("metrics").path("ttft_p50_ms");
        assertThat(p50.path("reason").asText()).as("reason of %s", p50).isEqualTo("no per-request samples: no interval");
        assertThat(p50.path("verdict").isNull()).as("verdict").isTrue();
        assertThat(p50.path("difference").asDouble()).as("the difference is still given").isPositive();
        assertThat(o.err()).as("stderr").contains("--fail-on-regression ttft_p50_ms: no per-request samples: no"
                + " interval, not checked");
    }
}
