package io.capstream.cli.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.capstream.schemas.artifact.ArtifactJson;
import io.capstream.schemas.avro.BenchmarkReport;
import io.capstream.schemas.avro.RunSettings;
import io.capstream.schemas.report.ReportArtifact;
import java.util.List;
import org.junit.jupiter.api.Test;

class ArtifactRecordsTest {

    @Test
    void theRunSettingsComeBackFromAnArtifactFileWithTheExtraBodyAsJsonText() throws Exception {
        // extra_body's keys sorted, as the artifact writes them
        RunSettings run = RunSettings.newBuilder().setArrival("poisson").setRateRps(5.5).setKeepAlive(true)
                .setHeaderNames(List.of("X-Team")).setExtraBody("{\"stop\":[\"x\"],\"top_p\":0.9}").setBurst(3)
                .setExpectedWorkers(2).setInputTokensMean(300.0).build();
        BenchmarkReport r = BenchmarkReport.newBuilder(SummaryTableTest.report(List.of(), SummaryTableTest.knownMetrics()))
                .setRun(run).build();
        String artifact = ArtifactJson.write(ReportArtifact.toArtifact(r, false, null));
        assertThat(ArtifactJson.parse(artifact).get("capstream").get("run").get("extra_body").isObject())
                .as("capstream.run.extra_body in the artifact is an object").isTrue();
        BenchmarkReport back = ArtifactRecords.report(ArtifactJson.parse(artifact));
        assertThat(back.getRun()).as("capstream.run read back").isEqualTo(run);
    }
}
