package io.capstream.cli.rerun;

import io.capstream.cli.options.KafkaClientProperties;
import io.capstream.cli.report.StoredReports;
import io.capstream.cli.report.TopicHistory;
import io.capstream.schemas.Topics;
import io.capstream.schemas.avro.BenchmarkReport;
import io.capstream.schemas.avro.ReportChunk;
import io.capstream.schemas.avro.RunEvent;
import io.capstream.schemas.avro.RunStarted;
import io.capstream.schemas.registry.RegistryClientConfig;
import io.capstream.schemas.serde.SpecificAvroSerde;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * A past run as Kafka keeps it: its {@link RunStarted} on {@link Topics#EVENTS} (what its workload was) and its
 * latest report on {@link Topics#REPORTS} (what it measured). Only records keyed by the run id are decoded.
 *
 * @param runId   the run id
 * @param started its RunStarted (the first one on the topic)
 * @param report  its latest report, or null when none is on the topic
 */
public record PastRun(String runId, RunStarted started, BenchmarkReport report) {

    /**
     * Reads the run from Kafka (the whole events topic is scanned once; only the run's records are decoded).
     *
     * @param kafka          client settings with the bootstrap servers set; not null
     * @param registryUrl    the registry the events were written with; not null
     * @param registryClient registry client settings; not null
     * @param runId          the run id; not null
     * @return the run, or null when no RunStarted of that run id is on the topic
     * @throws IllegalStateException when a topic cannot be read
     */
    public static PastRun read(KafkaClientProperties kafka, String registryUrl, RegistryClientConfig registryClient,
                               String runId) {
        Deserializer<RunEvent> decoder = SpecificAvroSerde.forValue(RunEvent.class, registryUrl, registryClient)
                .deserializer();
        RunStarted[] started = {null};
        TopicHistory.read(kafka.consumer(Map.of()), Topics.EVENTS, (key, bytes) -> {
            if (started[0] != null || bytes == null || !runId.equals(key)) {
                return;
            }
            try {
                if (decoder.deserialize(Topics.EVENTS, bytes).getPayload() instanceof RunStarted s) {
                    started[0] = s;
                }
            } catch (RuntimeException e) {
                // an undecodable record of the run is skipped, as the aggregator skips it
            }
        });
        if (started[0] == null) {
            return null;
        }
        Map<String, BenchmarkReport> reports = StoredReports.latest(kafka.consumer(Map.of()), Topics.REPORTS,
                Topics.REPORT_CHUNKS, List.of(runId),
                SpecificAvroSerde.forValue(BenchmarkReport.class, registryUrl, registryClient).deserializer(),
                SpecificAvroSerde.forValue(ReportChunk.class, registryUrl, registryClient).deserializer());
        return new PastRun(runId, started[0], reports.get(runId));
    }
}
