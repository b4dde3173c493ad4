package io.capstream.cli.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.capstream.schemas.avro.SloAttainment;
import io.capstream.schemas.avro.SloReport;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The exit code of a run that missed its SLOs (issue 26.5: it exited 0). */
class SloGateTest {
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final PrintStream err = new PrintStream(bytes, true, StandardCharsets.UTF_8);

    private static SloReport report(boolean ttftMet, boolean errorsMet) {
        SloAttainment ttft = SloAttainment.newBuilder().setSlo("ttft_p95_ms<=1").setMetric("ttft_p95_ms")
                .setThreshold(1).setObserved(212.44).setMet(ttftMet).build();
        SloAttainment errors = SloAttainment.newBuilder().setSlo("error_rate<=0.01").setMetric("error_rate")
                .setThreshold(0.01).setObserved(0.0).setMet(errorsMet).build();
        return SloReport.newBuilder().setSlos(List.of(ttft, errors)).setRequests(4).setGoodRequests(0)
                .setGoodput(0.0).setMetAll(ttftMet && errorsMet).build();
    }

    private String err() {
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    void aMissedSloTurnsASuccessIntoThreeAndNamesIt() {
        assertEquals(3, SloGate.apply(report(false, true), 0, err, "capstream run"));
        assertEquals("capstream run: SLO missed: ttft_p95_ms<=1 (observed 212.4); exit code 3\n", err());
    }

    @Test
    void metSlosAnotherFailureOrNoReportKeepTheCode() {
        assertEquals(0, SloGate.apply(report(true, true), 0, err, "capstream run"));
        assertEquals(1, SloGate.apply(report(false, false), 1, err, "capstream run"), "failed requests stay 1");
        assertEquals(0, SloGate.apply(null, 0, err, "capstream run"));
        assertEquals("", err(), "nothing printed when the code is kept");
    }
}
