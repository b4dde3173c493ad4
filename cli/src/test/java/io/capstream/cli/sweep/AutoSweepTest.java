package io.capstream.cli.sweep;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** {@code sweep --rate auto} with fake probes and steps: the order, the rates, and where it stops. */
class AutoSweepTest {
    private final List<String> ran = new ArrayList<>();
    private final List<String> said = new ArrayList<>();

    private AutoSweep.Probe probes(Optional<Double> sync, Optional<Double> max) {
        return (runId, slots, synchronous) -> {
            ran.add(runId + " x" + slots + (synchronous ? " (warm-up)" : ""));
            return synchronous ? sync : max;
        };
    }

    private AutoSweep.Step steps(int failAt) {
        return (step, rate) -> {
            ran.add("s" + step + " @" + LoadAxis.RATE.format(rate));
            return step != failAt;
        };
    }

    @Test
    void synchronousThenThroughputThenTheRatesBetween() throws Exception {
        AutoSweep.Outcome o = AutoSweep.run("sw", 40, 4, probes(Optional.of(2.0), Optional.of(26.0)), steps(-1),
                () -> false, said::add);
        assertThat(ran).as("runs in order").containsExactly("sw-sync x1 (warm-up)", "sw-max x40", "s1 @8", "s2 @14",
                "s3 @20", "s4 @26");
        assertThat(o.complete()).isTrue();
        assertThat(o.range().rates()).containsExactly(8.0, 14.0, 20.0, 26.0);
        assertThat(said).containsExactly("--rate auto: synchronous 2 req/s, throughput (40 at once) 26 req/s: rates"
                + " 8, 14, 20, 26 req/s");
    }

    @Test
    void aProbeOrStepWithoutReportOrAStopEndsTheSweep() throws Exception {
        AutoSweep.Outcome noSync = AutoSweep.run("sw", 40, 4, probes(Optional.empty(), Optional.of(26.0)), steps(-1),
                () -> false, said::add);
        assertThat(ran).as("no synchronous report: nothing else runs").containsExactly("sw-sync x1 (warm-up)");
        assertThat(noSync.complete()).isFalse();
        assertThat(noSync.range()).isNull();

        ran.clear();
        AutoSweep.Outcome nothing = AutoSweep.run("sw", 40, 4, probes(Optional.of(0.0), Optional.of(0.0)), steps(-1),
                () -> false, said::add);
        assertThat(ran).as("no request completed in either probe: no rate").hasSize(2);
        assertThat(nothing.complete()).isFalse();
        assertThat(said.get(said.size() - 1)).endsWith("no rate to run (no request completed)");

        ran.clear();
        AutoSweep.Outcome failed = AutoSweep.run("sw", 40, 4, probes(Optional.of(2.0), Optional.of(26.0)), steps(2),
                () -> false, said::add);
        assertThat(ran).as("step 2 has no report").containsExactly("sw-sync x1 (warm-up)", "sw-max x40", "s1 @8",
                "s2 @14");
        assertThat(failed.complete()).isFalse();

        ran.clear();
        AutoSweep.Outcome stopped = AutoSweep.run("sw", 40, 4, probes(Optional.of(2.0), Optional.of(26.0)), steps(-1),
                () -> true, said::add);
        assertThat(ran).as("Ctrl-C during the synchronous probe").containsExactly("sw-sync x1 (warm-up)");
        assertThat(stopped.range().synchronousRps()).isEqualTo(2.0);
    }
}
