package io.capstream.aggregator.sweep;

import static org.assertj.core.api.Assertions.assertThat;

import io.capstream.aggregator.serde.SerdeFixtures;
import io.capstream.schemas.avro.SweepCurve;
import io.capstream.schemas.avro.SweepPoint;
import io.capstream.schemas.serde.RandomRecords;
import java.util.List;
import org.junit.jupiter.api.Test;

class SweepCurveBinarySerdeTest {
    private final SweepCurveBinarySerde serde = new SweepCurveBinarySerde();

    private SweepCurve roundTrip(SweepCurve c) {
        return serde.deserializer().deserialize("t", serde.serializer().serialize("t", c));
    }

    /** A two-step grid with SLOs, the curve the fixture was captured from. */
    private static SweepCurve curve() {
        SweepPoint.Builder p = SweepPoint.newBuilder().setRunId("sweep-1-s1").setStep(1).setLoad(2).setRepeat(false)
                .setRequests(20).setCompleted(19).setFailed(1).setErrorRate(0.05).setOutputTokS(812.5)
                .setTtftP95Ms(140.25).setE2eP99Ms(2400.0).setOfferedLoad(2.0).setBehindSchedule(false)
                .setInterrupted(false).setMeetsSlos(true).setHeldByInFlightCap(false);
        SweepPoint second = SweepPoint.newBuilder(p.build()).setRunId("sweep-1-s2").setStep(2).setLoad(4)
                .setTtftP95Ms(610.0).setMeetsSlos(false).build();
        return SweepCurve.newBuilder().setSweepId("sweep-1").setAxis("concurrency").setMode("grid")
                .setSlos(List.of("ttft_p95_ms<=300")).setStepsPlanned(2).setPoints(List.of(p.build(), second))
                .setMaxLoadMeetingSlos(2.0).setMaxLoadLowerBound(false).setMaxLoadRunId("sweep-1-s1")
                .setUpdatedAtMs(1_785_585_700_000L).build();
    }

    /** The curve with the intervals of issue 32 on its first point. */
    private static SweepCurve curveWithIntervals() {
        SweepCurve c = curve();
        List<SweepPoint> points = new java.util.ArrayList<>(c.getPoints());
        points.set(0, SweepPoint.newBuilder(points.get(0))
                .setPercentileCi(java.util.Map.of("ttft_p95_ms", List.of(120.5, 160.0))).build());
        return SweepCurve.newBuilder(c).setPoints(points).build();
    }

    @Test
    void capturedBytesDecodeToTheCurveTheyWereWrittenFrom() {
        byte[] current = serde.serializer().serialize("t", curveWithIntervals());
        byte[] captured = SerdeFixtures.captured("sweep-curve.bin", current);
        assertThat(serde.deserializer().deserialize("t", captured)).as("the captured curve")
                .isEqualTo(curveWithIntervals());
        assertThat(current).as("today's encoding (the sweep store's changelog)").isEqualTo(captured);
    }

    /** A changelog written before issue 32 (points without percentile_ci) restores after the upgrade. */
    @Test
    void bytesWrittenBeforeIssue32DecodeWithoutIntervals() {
        byte[] before = SerdeFixtures.captured("sweep-curve-before-issue-32.bin", new byte[0]);
        assertThat(serde.deserializer().deserialize("t", before)).as("the curve captured before issue 32")
                .isEqualTo(curve());
    }

    @Test
    void anyCurveRoundTripsAndNullIsNull() {
        for (SweepCurve c : RandomRecords.of(SweepCurve.class, 50, 17)) {
            assertThat(roundTrip(c)).as("round trip").isEqualTo(c);
        }
        assertThat(serde.serializer().serialize("t", null)).isNull();
        assertThat(serde.deserializer().deserialize("t", null)).isNull();
    }
}
