package io.capstream.cli.compare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.fasterxml.jackson.databind.JsonNode;
import io.capstream.cli.compare.RunComparison.Direction;
import io.capstream.cli.compare.RunComparison.MetricChange;
import io.capstream.cli.compare.RunComparison.Unit;
import io.capstream.cli.compare.RunComparison.Verdict;
import io.capstream.cli.compare.RunComparison.WorkloadDifference;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link RunComparison}: values, changes, directions and the workload differences of two reports. */
class RunComparisonTest {
    private static MetricChange metric(RunComparison c, String name) {
        return c.metrics().stream().filter(m -> m.name().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no metric " + name + " in " + c.metrics()));
    }

    @Test
    void latenciesComeFromTheStatisticsWithTheirChanges() {
        RunComparison c = RunComparison.of(Artifacts.report("a", 100, 4, null), Artifacts.report("b", 125, 4, null));
        assertEquals("a", c.runA());
        assertEquals("b", c.runB());
        MetricChange p99 = metric(c, "TTFT p99");
        assertEquals(130.0, p99.a());
        assertEquals(155.0, p99.b());
        assertEquals(25.0, p99.absolute());
        assertEquals(25.0 / 130.0, p99.relative(), 1e-12);
        assertEquals(Unit.MS, p99.unit());
        assertEquals(Direction.LOWER_IS_BETTER, p99.direction());
        assertEquals(Verdict.WORSE, p99.verdict());
        // p50 from statistics (100), not from the anvil metric (101)
        assertEquals(100.0, metric(c, "TTFT p50").a());
        assertEquals(List.of("TTFT p50", "TTFT p90", "TTFT p95", "TTFT p99", "output throughput", "request throughput",
                "total token throughput", "completed", "failed", "error rate"), c.metrics().stream().map(MetricChange::name).toList(),
                "metrics neither report has (E2E, ITL, goodput) are left out");
    }

    @Test
    void withoutStatisticsTheAnvilP50AndP95AreTheFallback() {
        JsonNode a = Artifacts.json("{'run_id':'a','metrics':{'ttft_p50_ms':10.0,'ttft_p95_ms':20.0,"
                + "'e2e_p50_ms':100.0},'completed':5}");
        JsonNode b = Artifacts.json("{'run_id':'b','metrics':{'ttft_p50_ms':8.0,'ttft_p95_ms':30.0},'completed':5}");
        RunComparison c = RunComparison.of(a, b);
        assertEquals(List.of("TTFT p50", "TTFT p95", "E2E p50", "completed"),
                c.metrics().stream().map(MetricChange::name).toList());
        assertEquals(Verdict.BETTER, metric(c, "TTFT p50").verdict());
        assertEquals(-0.2, metric(c, "TTFT p50").relative(), 1e-12);
        MetricChange e2e = metric(c, "E2E p50");
        assertEquals(100.0, e2e.a());
        assertNull(e2e.b(), "B has no E2E");
        assertNull(e2e.absolute());
        assertNull(e2e.relative());
        assertNull(e2e.verdict());
        assertNull(metric(c, "completed").verdict(), "a count that follows the workload has no verdict");
        assertEquals(0.0, metric(c, "completed").relative());
        assertThat(c.metrics()).as("no failed count: no error rate").noneMatch(m -> m.name().equals("error rate"));
    }

    @Test
    void higherIsBetterForThroughputsAndGoodputAndTheRelativeChangeOfZeroIsNull() {
        RunComparison c = RunComparison.of(Artifacts.report("a", 100, 4, 0.0), Artifacts.report("b", 100, 4, 0.75));
        MetricChange goodput = metric(c, "goodput");
        assertEquals(Unit.FRACTION, goodput.unit());
        assertEquals(Direction.HIGHER_IS_BETTER, goodput.direction());
        assertEquals(0.75, goodput.absolute());
        assertNull(goodput.relative(), "A is 0: no relative change");
        assertEquals(Verdict.BETTER, goodput.verdict());
        assertEquals(Verdict.UNCHANGED, metric(c, "goodput rate").verdict());
        MetricChange rps = new MetricChange("request throughput", Unit.REQ_S, Direction.HIGHER_IS_BETTER, 2.0, 1.0);
        assertEquals(Verdict.WORSE, rps.verdict());
        assertEquals(-0.5, rps.relative());
        MetricChange failed = new MetricChange("failed", Unit.COUNT, Direction.LOWER_IS_BETTER, 3.0, 1.0);
        assertEquals(Verdict.BETTER, failed.verdict());
    }

    /** Before: completed 40 vs 16 (two workloads of different sizes, every request completed) was "worse". */
    @Test
    void countsThatFollowTheWorkloadHaveNoVerdictTheErrorRateHasAndTinyChangesAreNoChange() {
        JsonNode a = Artifacts.json("{'run_id':'a','completed':40,'failed':0}");
        JsonNode b = Artifacts.json("{'run_id':'b','completed':12,'failed':4}");
        RunComparison c = RunComparison.of(a, b);
        assertEquals(Direction.NEITHER, metric(c, "completed").direction());
        assertNull(metric(c, "completed").verdict());
        assertNull(metric(c, "failed").verdict());
        MetricChange errors = metric(c, "error rate");
        assertEquals(0.0, errors.a());
        assertEquals(0.25, errors.b());
        assertEquals(Verdict.WORSE, errors.verdict());
        assertEquals(Verdict.UNCHANGED,
                new MetricChange("ITL p90", Unit.MS, Direction.LOWER_IS_BETTER, 16.72, 16.7205).verdict());
    }

    /** Before: a -0.2 % change of ITL p90 (16.72 to 16.69 ms, run-to-run noise) was "better". */
    @Test
    void changesWithinTheThresholdAreTheSameAndTheThresholdCanBeSet() {
        MetricChange noise = new MetricChange("ITL p90", Unit.MS, Direction.LOWER_IS_BETTER, 16.72, 16.69);
        assertEquals(Verdict.UNCHANGED, noise.verdict(), "a -0.2 % change with the default threshold: " + noise);
        assertEquals(Verdict.BETTER, new MetricChange("ITL p90", Unit.MS, Direction.LOWER_IS_BETTER, 16.72, 16.69, 0.0)
                .verdict(), "threshold 0 calls every printed change");
        double t = RunComparison.DEFAULT_THRESHOLD;
        assertEquals(Verdict.UNCHANGED,
                new MetricChange("TTFT p95", Unit.MS, Direction.LOWER_IS_BETTER, 100.0, 100.0 * (1 + t)).verdict(),
                "exactly the threshold is still the same");
        assertEquals(Verdict.WORSE,
                new MetricChange("TTFT p95", Unit.MS, Direction.LOWER_IS_BETTER, 100.0, 100.0 * (1 + t) + 0.1).verdict(),
                "0.1 % beyond the threshold (as printed) is worse");
        assertEquals(Verdict.WORSE, new MetricChange("error rate", Unit.FRACTION, Direction.LOWER_IS_BETTER, 0.0, 0.001)
                .verdict(), "a change from 0 always has a verdict");

        RunComparison strict = RunComparison.of(Artifacts.report("a", 100, 4, null), Artifacts.report("b", 103, 4, null),
                0.01);
        assertEquals(0.01, strict.threshold());
        assertEquals(Verdict.WORSE, metric(strict, "TTFT p50").verdict(), "+3 % at a 1 % threshold");
        RunComparison loose = RunComparison.of(Artifacts.report("a", 100, 4, null), Artifacts.report("b", 103, 4, null),
                0.05);
        assertEquals(Verdict.UNCHANGED, metric(loose, "TTFT p50").verdict(), "+3 % at a 5 % threshold");
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> RunComparison.of(Artifacts.report("a", 100, 4, null), Artifacts.report("b", 103, 4, null), -0.01));
    }

    @Test
    void everyDifferingWorkloadKeyIsListedNestedOnesDotted() {
        JsonNode a = Artifacts.json("{'run_id':'a','model':'m','concurrency':4,'max_tokens':32,"
                + "'serve_flags':{'no_thinking':false},'capstream':{'run':{'arrival':'closed','rate_rps':null}}}");
        JsonNode b = Artifacts.json("{'run_id':'b','model':'m','concurrency':8,'max_tokens':32,'engine':'vllm',"
                + "'serve_flags':{'no_thinking':true},'capstream':{'run':{'arrival':'poisson','rate_rps':5.0}}}");
        assertEquals(List.of(new WorkloadDifference("engine", null, "vllm"),
                        new WorkloadDifference("concurrency", "4", "8"),
                        new WorkloadDifference("serve_flags.no_thinking", "false", "true"),
                        new WorkloadDifference("capstream.run.arrival", "closed", "poisson"),
                        new WorkloadDifference("capstream.run.rate_rps", null, "5.0")),
                RunComparison.of(a, b).workload());
        assertEquals(List.of(), RunComparison.of(a, a).workload());
    }
}
