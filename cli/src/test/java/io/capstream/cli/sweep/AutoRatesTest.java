package io.capstream.cli.sweep;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.capstream.loadgen.run.RunConfig;
import io.capstream.loadgen.run.TargetConfig;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code sweep --rate auto}: GuideLLM's rule for the rates between the synchronous and the throughput step. */
class AutoRatesTest {

    /** GuideLLM: linspace(sync, throughput, sweep_size - 1)[1:]; sweep_size 10 is 8 rates from 2 to 30 req/s. */
    @Test
    void ratesAreEvenlySpacedAboveTheSynchronousRateUpToTheThroughputRate() {
        assertThat(AutoRates.between(2.0, 30.0, 8)).as("step (30 - 2) / 8 = 3.5")
                .containsExactly(5.5, 9.0, 12.5, 16.0, 19.5, 23.0, 26.5, 30.0);
        assertThat(AutoRates.between(1.0, 4.0, 1)).as("one rate: the throughput rate").containsExactly(4.0);
        assertThat(AutoRates.between(1.234567, 10.0, 2)).as("4 significant digits").containsExactly(5.617, 10.0);
    }

    @Test
    void noRateWithoutAMeasuredRate() {
        assertThat(AutoRates.between(null, null, 8)).as("no probe completed a request").isEmpty();
        assertThat(AutoRates.between(0.0, 0.0, 8)).isEmpty();
        assertThat(AutoRates.between(null, 6.0, 3)).as("no synchronous rate: from 0").containsExactly(2.0, 4.0, 6.0);
    }

    @Test
    void autoAndItsCountAreRead() {
        assertThat(AutoRates.isAuto(" AUTO ")).isTrue();
        assertThat(AutoRates.isAuto("auto:5")).isTrue();
        assertThat(AutoRates.isAuto("2,4")).isFalse();
        assertThat(AutoRates.parseCount("auto", 64)).as("default: GuideLLM's 10 minus its 2 probes").isEqualTo(8);
        assertThat(AutoRates.parseCount("auto:12", 64)).isEqualTo(12);
        assertThatThrownBy(() -> AutoRates.parseCount("auto:65", 64)).hasMessageContaining("1..64, got '65'");
    }

    @Test
    void theThroughputStepHasEveryRequestInFlightUpToTheCap() {
        RunConfig base = RunConfig.of(TargetConfig.of("http://127.0.0.1:8000/v1", "m"))
                .withLoad(l -> l.withRequests(40).withMaxInFlight(null));
        assertThat(SweepSteps.throughputSlots(base)).as("40 requests, default cap").isEqualTo(40);
        assertThat(SweepSteps.throughputSlots(base.withLoad(l -> l.withMaxInFlight(16)))).as("--max-in-flight 16")
                .isEqualTo(16);
    }

    @Test
    void theRangeIsDescribedAndWrittenForSweepJson() {
        AutoRange a = new AutoRange("s-sync", 1.9234, "s-max", 40, 30.0, List.of(11.3, 20.6, 30.0));
        assertThat(a.describe()).isEqualTo("--rate auto: synchronous 1.923 req/s, throughput (40 at once) 30 req/s:"
                + " rates 11.3, 20.6, 30 req/s");
        assertThat(a.toJson().toString()).isEqualTo("{\"rule\":\"guidellm-sweep\",\"synchronous_run_id\":\"s-sync\","
                + "\"synchronous_rps\":1.9234,\"throughput_run_id\":\"s-max\",\"throughput_slots\":40,"
                + "\"throughput_rps\":30.0,\"rates\":[11.3,20.6,30.0]}");
    }
}
