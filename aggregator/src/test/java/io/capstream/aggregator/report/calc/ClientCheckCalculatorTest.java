package io.capstream.aggregator.report.calc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.capstream.schemas.avro.ClientCheck;
import io.capstream.schemas.avro.RunEvent;
import io.capstream.schemas.avro.RunFinished;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The aggregator computes the self-check's statistics from the generator's raw data as the generator used to: the
 * expected values below were printed once by the old {@code SelfCheck.build} (load-generator, before this change) for
 * the same histograms, queue times, CPU and GC numbers, and are pinned here.
 */
class ClientCheckCalculatorTest {
    /** LoopDelayProbe.record of 500 fires (delays 80..1893 us, every third with a 10 ms period) and a 12.3 ms stall. */
    private static final String HIST = "HISTFAAAAIR4nJNpmSzMwMCwiAECmKE0IxDz/nCPYLD/ABE4XBzTyOk1m81rP0vMfhavlSxec5li5jMBSa/"
            + "5TDFgEiTSz+jVy+jVzxjTi8roZYRK9YJFgOzAGFcvVy93MOkKJHmZTIG0O5QHIxHy/1mYzrIzNbMzPWdmegpDvxmZPoLRZ0YmAFCGNVg=";
    /** LoopDelayProbe.record of 200 fires 8.0..8.2 ms late (1 ms period). */
    private static final String HIST2 = "HISTFAAAAHx4nJNpmSzMwMAszwABzFCaEYh5f7hHMNh/gAgcXMfIxACEYII4SKpCdMCCIYIL0EA"
            + "lWOFsHpoaD6TQARuGCJpgNxsTbkm8gkQrZGHqZiNRB6n2cTA1M7NwQAEXByYLmyBLMzMTQUVoglA9xBgPZ7K1MpPkLiCTDQA6QBYT";

    private static ByteBuffer bytes(String base64) {
        return ByteBuffer.wrap(Base64.getDecoder().decode(base64));
    }

    private static long[] queueNs() {
        long[] q = new long[206];
        long[] first = {0, 1_234_567, 2_345_678, 9_876_543, -5, 77_777_777};
        System.arraycopy(first, 0, q, 0, first.length);
        for (int i = 0; i < 200; i++) {
            q[6 + i] = i * 123_457L;
        }
        return q;
    }

    /** What the generator sent for the first pinned case: raw fields only. */
    private static ClientCheck raw() {
        return ClientCheck.newBuilder().setDelaySamples(2015).setDelayHistogram(bytes(HIST)).setTargetLocal(true)
                .setCpuProcessMs(400.0).setCpuEventLoopsMs(950.0).setCpuEventLoopBusyMax(0.95).setCpuMachineBusy(0.98)
                .setCpuCores(2).setCpuMsPer1000Chunks(1537.2168284789643).setStreamChunks(618)
                .setGcCollector("G1 Young Generation, G1 Old Generation").setGcPauses(1).setGcPauseMs(7.25)
                .setGcPauseMaxMs(7.25).setInFlightMean(1.03).build();
    }

    @Test
    void theStatisticsEqualWhatTheGeneratorComputedForTheSameInputs() {
        ClientCheck c = ClientCheckCalculator.compute(raw(), 1_000_000_000L, queueNs());
        assertThat(List.of(c.getDelayP50Ms(), c.getDelayP99Ms(), c.getDelayMaxMs())).as("delay p50/p99/max, ms")
                .containsExactly(1.005055, 1.893375, 12.353535);
        assertThat(List.of(c.getQueueP50Ms(), c.getQueueP99Ms(), c.getQueueMaxMs())).as("queue p50/p99/max, ms")
                .containsExactly(11.976703, 24.444927, 77.791231);
        assertThat(c.getWarnings()).as("warnings, word for word").containsExactly(
                "an event loop was on CPU 95% of the run: the client saturated a core",
                "GC paused the client for up to 7.3 ms",
                "this machine's CPUs were 98% busy (by anything) and capstream used 20% of them: a target on this"
                        + " machine may have run slower");
        assertThat(c.getDistorted()).as("distorted").isTrue();
        assertThat(c.getDelayHistogram()).as("the raw histogram is not part of the report").isNull();
        assertThat(c.getCpuProcessMs()).as("raw measurements pass through").isEqualTo(400.0);
    }

    @Test
    void aDelayP99AboveFiveMsIsTheDelayWarningAndNoRequestsNoQueueing() {
        ClientCheck raw = ClientCheck.newBuilder().setDelaySamples(1600).setDelayHistogram(bytes(HIST2))
                .setTargetLocal(false).setCpuProcessMs(400.0).setCpuCores(2).build();
        ClientCheck c = ClientCheckCalculator.compute(raw, 1_000_000_000L, new long[0]);
        assertThat(List.of(c.getDelayP50Ms(), c.getDelayP99Ms(), c.getDelayMaxMs())).as("delay p50/p99/max, ms")
                .containsExactly(4.202495, 8.183807, 8.200191);
        assertThat(c.getQueueP50Ms()).as("queue p50 without requests").isNull();
        assertThat(c.getWarnings()).as("warnings").containsExactly(
                "event-loop delay p99 8.2 ms > 5 ms: chunks may have been timestamped up to that late");
        assertThat(c.getDistorted()).as("distorted").isTrue();
    }

    @Test
    void eachWorkersShareGetsItsOwnRequestsAndAnOlderGeneratorsCheckIsKept() {
        ClientCheck old = ClientCheck.newBuilder().setDelayP99Ms(7.0).setQueueP50Ms(3.0).setDistorted(true)
                .setWarnings(List.of("as the old generator said")).build();
        List<RunEvent> finished = List.of(
                event("w1", RunFinished.newBuilder(Fixtures.finished(1_000_000_000L)).setShare(0).setShares(2)
                        .setClientCheck(raw()).build()),
                event("w1", RunFinished.newBuilder(Fixtures.finished(1_000_000_000L)).setShare(1).setShares(2)
                        .setClientCheck(raw()).build()),
                event("w2", RunFinished.newBuilder(Fixtures.finished(1_000_000_000L)).setClientCheck(old).build()));
        List<RunEvent> requests = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            // share 0 (even indices) waited 1 ms, share 1 (odd) 40 ms; w2's requests are not w1's
            requests.add(event("w1", Fixtures.ok(i, 10, 20, 5, 5).setClientQueueNs(i % 2 == 0 ? 1_000_000 : 40_000_000)
                    .build()));
        }
        requests.add(event("w1", Fixtures.failed(4, "boom").setClientQueueNs(2_000_000).build()));
        requests.add(event("w2", Fixtures.ok(5, 10, 20, 5, 5).setClientQueueNs(900_000_000).build()));
        List<RunEvent> out = ClientCheckCalculator.computed(finished, requests);
        ClientCheck share0 = ((RunFinished) out.get(0).getPayload()).getClientCheck();
        ClientCheck share1 = ((RunFinished) out.get(1).getPayload()).getClientCheck();
        assertThat(List.of(share0.getQueueP50Ms(), share0.getQueueMaxMs())).as("share 0: indices 0, 2, 4")
                .containsExactly(1.000447, 2.000895);
        assertThat(share1.getQueueMaxMs()).as("share 1: indices 1, 3").isEqualTo(40.009727);
        assertThat(out.get(2)).as("an older generator's check (no delay_histogram) as it came")
                .isSameAs(finished.get(2));
    }

    @Test
    void aHistogramThatIsNotOneIsAClearErrorAndTheRunKeepsItsReport() {
        ClientCheck raw = ClientCheck.newBuilder().setDelayHistogram(ByteBuffer.wrap(new byte[] {1, 2, 3})).build();
        assertThatThrownBy(() -> ClientCheckCalculator.compute(raw, 1, new long[0]))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("delay_histogram");
        RunEvent fin = event("w1", RunFinished.newBuilder(Fixtures.finished(1)).setClientCheck(raw).build());
        ClientCheck kept = ((RunFinished) ClientCheckCalculator.computed(List.of(fin), List.of()).get(0).getPayload())
                .getClientCheck();
        assertThat(kept.getDelayHistogram()).as("the unreadable histogram is dropped, the report still made").isNull();
        assertThat(kept.getDelayP99Ms()).as("no delay statistic from it").isNull();
    }

    private static RunEvent event(String worker, Object payload) {
        return RunEvent.newBuilder().setRunId("r").setEventId(worker + payload.hashCode()).setWorkerId(worker)
                .setEmittedAtMs(0).setPayload(payload).build();
    }
}
