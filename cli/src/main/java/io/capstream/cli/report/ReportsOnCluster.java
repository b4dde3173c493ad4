package io.capstream.cli.report;

import io.capstream.cli.options.KafkaOptions;
import io.capstream.schemas.Topics;
import io.capstream.schemas.avro.BenchmarkReport;
import io.capstream.schemas.avro.ReportKind;
import io.capstream.schemas.serde.SpecificAvroSerde;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * Which of some run ids already have a report on a shared cluster's {@code capstream.reports}, and of which kind
 * (live, replay, imported): {@code import} does not publish a run again that is already there (its requests would be
 * counted a second time in the window summaries, and its report, a live one included, replaced by the imported one).
 * Reads the compacted topic from its start, decoding only the records of the asked run ids. Stateless.
 */
public final class ReportsOnCluster {
    private ReportsOnCluster() {
    }

    /**
     * @param kafka  the Kafka and registry options (bootstrap servers and registry URL not null)
     * @param runIds run ids to look up; not null
     * @return run id to the kind of its latest report, for those that have one ({@code capstream.reports} missing:
     *         none); a report that cannot be decoded counts as there, of kind null
     */
    public static Map<String, ReportKind> kinds(KafkaOptions kafka, Collection<String> runIds) {
        Set<String> ids = new HashSet<>(runIds);
        Map<String, ReportKind> out = new HashMap<>();
        if (ids.isEmpty()) {
            return out;
        }
        Deserializer<BenchmarkReport> reports = SpecificAvroSerde.forValue(BenchmarkReport.class,
                kafka.schemaRegistryUrl(), kafka.registryClientConfig()).deserializer();
        try {
            TopicHistory.read(kafka.clientProperties().consumer(
                    Map.of(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false)), Topics.REPORTS, (key, bytes) -> {
                        if (key == null || !ids.contains(key)) {
                            return;
                        }
                        if (bytes == null) {
                            out.remove(key);
                            return;
                        }
                        ReportKind kind;
                        try {
                            kind = reports.deserialize(Topics.REPORTS, bytes).getProvenance().getKind();
                        } catch (RuntimeException e) {
                            kind = null; // written with another registry: still a report of this run id
                        }
                        out.put(key, kind);
                    });
        } catch (IllegalStateException e) {
            if (!String.valueOf(e.getMessage()).contains("does not exist")) {
                throw e;
            }
        }
        return out;
    }
}
