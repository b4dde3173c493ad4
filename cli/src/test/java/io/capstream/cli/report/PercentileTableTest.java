package io.capstream.cli.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.capstream.schemas.avro.Distribution;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The key line of the {@code [n<M]} marker under the percentile table (issue 32). */
class PercentileTableTest {
    @Test
    void theKeyNamesTheSmallestSampleOfEachMarkedPercentileFromTheIntervalCode() {
        assertThat(PercentileTable.markerKey(List.of(50, 95, 99))).as("key for p50, p95, p99")
                .isEqualTo("[n<M]: too few values for a 95% interval of that percentile"
                        + " (6 needed for p50, 72 for p95, 368 for p99)");
        assertThat(PercentileTable.markerKey(List.of())).as("no marker, no key").isNull();
    }

    @Test
    void aTableWithMarkersEndsInTheKeyAndOneWithoutHasNone() {
        Distribution small = Distribution.newBuilder().setCount(40).setP50(10.0).setP95(20.0).setP99(30.0)
                .setP50Ci(List.of(9.0, 11.0)).setCiUnavailable(Map.of(
                        "p95", "40 values are too few for a 95% interval of p95 (needs at least 72)",
                        "p99", "40 values are too few for a 95% interval of p99 (needs at least 368)")).build();
        String marked = new PercentileTable().row("TTFT (ms)", new Double[] {10.0, 20.0, 30.0}, small).render();
        String[] lines = marked.split(System.lineSeparator());
        assertThat(lines).as("header, row, key: " + marked).hasSize(3);
        assertThat(lines[1]).as("row").contains("20.0 [n<72]", "30.0 [n<368]");
        assertThat(lines[2]).as("key").isEqualTo("[n<M]: too few values for a 95% interval of that percentile"
                + " (72 needed for p95, 368 for p99)");

        Distribution large = Distribution.newBuilder().setCount(400).setP50(10.0).setP95(20.0).setP99(30.0)
                .setP50Ci(List.of(9.0, 11.0)).setP95Ci(List.of(19.0, 21.0)).setP99Ci(List.of(28.0, 33.0)).build();
        String plain = new PercentileTable().row("TTFT (ms)", new Double[] {10.0, 20.0, 30.0}, large).render();
        assertThat(plain).as("intervals everywhere: no key").doesNotContain("[n<M]");
        assertThat(plain.split(System.lineSeparator())).as(plain).hasSize(2);
    }
}
