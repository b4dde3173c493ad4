package io.capstream.cli.compare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.capstream.cli.compare.RunComparison.Direction;
import io.capstream.cli.compare.RunComparison.MetricChange;
import io.capstream.cli.compare.RunComparison.Unit;
import io.capstream.cli.compare.RunComparison.WorkloadDifference;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The console text of {@code capstream compare}. */
class CompareTableTest {
    @Test
    void everyLineIsAlignedWithUnitSignedChangeAndPercent() {
        RunComparison c = new RunComparison("run-a", "run-b", List.of(
                new MetricChange("TTFT p95", Unit.MS, Direction.LOWER_IS_BETTER, 200.0, 224.6),
                new MetricChange("request throughput", Unit.REQ_S, Direction.HIGHER_IS_BETTER, 4.0, 3.0),
                new MetricChange("goodput", Unit.FRACTION, Direction.HIGHER_IS_BETTER, 0.0, 0.5),
                new MetricChange("failed", Unit.COUNT, Direction.LOWER_IS_BETTER, 2.0, 2.0),
                new MetricChange("E2E p99", Unit.MS, Direction.LOWER_IS_BETTER, 10.0, null),
                new MetricChange("ITL p90", Unit.MS, Direction.LOWER_IS_BETTER, 16.72, 16.69)),
                List.of(new WorkloadDifference("concurrency", "4", "8"),
                        new WorkloadDifference("capstream.run.rate_rps", null, "5.0")));
        String text = CompareTable.render(c, "a.json", "run-b");
        assertEquals(String.join("\n",
                "A  run-a  (a.json)",
                "B  run-b",
                "changes within +/-5.0 % of A are \"same\" (--threshold; single runs have no confidence intervals)",
                "",
                "metric                   unit              A            B          B-A    change",
                "TTFT p95                 ms            200.0        224.6        +24.6    +12.3%  worse",
                "request throughput       req/s          4.00         3.00        -1.00    -25.0%  worse",
                "goodput                                0.000        0.500       +0.500         -  better",
                "failed                                     2            2            0      0.0%  same",
                "E2E p99                  ms             10.0            -            -         -",
                "ITL p90                  ms             16.7         16.7          0.0     -0.2%  same",
                "",
                "workload differences:",
                "  concurrency             A 4  B 8",
                "  capstream.run.rate_rps  A -  B 5.0",
                ""), text);
    }

    @Test
    void sameWorkloadsSaySo() {
        String text = CompareTable.render(new RunComparison("a", "b", List.of(), List.of()), "a", "b");
        assertThat(text).endsWith("\nworkload: same\n");
    }

    @Test
    void aTinyNegativeChangePrintsWithoutSign() {
        assertEquals("0.0", CompareTable.signed("%.1f", -0.01));
        assertEquals("0.0", CompareTable.signed("%.1f", 0.01), "a change that prints as 0 has no sign either way");
        assertEquals("-0.1%", CompareTable.percent(-0.001));
        assertEquals("-", CompareTable.percent(null));
    }

    /** Issue 33 (fresh-user pass): two sweep steps' prompt salts end in a newline; each stays on its line, escaped. */
    @Test
    void aWorkloadValueWithANewlineIsPrintedQuotedOnOneLine() {
        String text = CompareTable.render(new RunComparison("a", "b", List.of(), List.of(
                new RunComparison.WorkloadDifference("capstream.run.prompt_salt", "# run 3f9a1c2b7d4e\n",
                        "# run 77aa01bc2d3e\n"),
                new RunComparison.WorkloadDifference("concurrency", "4", "8"))), "a", "b");
        assertThat(text).as("compare text").endsWith("workload differences:\n"
                + "  capstream.run.prompt_salt  A \"# run 3f9a1c2b7d4e\\n\"  B \"# run 77aa01bc2d3e\\n\"\n"
                + "  concurrency                A 4  B 8\n");
    }
}
