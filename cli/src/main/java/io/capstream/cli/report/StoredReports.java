package io.capstream.cli.report;

import io.capstream.aggregator.report.ReportChunks;
import io.capstream.schemas.avro.BenchmarkReport;
import io.capstream.schemas.avro.ReportChunk;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.serialization.Deserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the reports already on the topics (not the ones to come: that is {@link ReportWaiter}):
 * the latest report of each asked run id, with the artifact of a large report put back together
 * from its chunks ({@code ReportChunks}).
 */
public final class StoredReports {
    private static final Logger LOG = LoggerFactory.getLogger(StoredReports.class);

    private StoredReports() {
    }

    /**
     * @param consumerProps      consumer settings (bootstrap servers, security); not null
     * @param reportsTopic       reports topic; not null
     * @param chunksTopic        chunks topic; not null (read only when a large report is among the asked ones)
     * @param runIds             run ids to look up; not null
     * @param reportDeserializer report deserializer; not null
     * @param chunkDeserializer  chunk deserializer; not null
     * @return run id to its latest report, {@code artifact_json} whole; run ids without a report, with
     *         an undecodable one, or whose chunks are not all on the topic any more are absent
     * @throws IllegalStateException when the reports topic does not exist or cannot be read
     */
    public static Map<String, BenchmarkReport> latest(Map<String, Object> consumerProps, String reportsTopic,
                                                      String chunksTopic, Collection<String> runIds,
                                                      Deserializer<BenchmarkReport> reportDeserializer,
                                                      Deserializer<ReportChunk> chunkDeserializer) {
        Set<String> ids = new HashSet<>(runIds);
        Map<String, BenchmarkReport> latest = new HashMap<>();
        if (ids.isEmpty()) {
            return latest;
        }
        TopicHistory.read(consumerProps, reportsTopic, (key, bytes) -> {
            if (key == null || !ids.contains(key)) {
                return;
            }
            if (bytes == null) {
                latest.remove(key);
                return;
            }
            try {
                latest.put(key, reportDeserializer.deserialize(reportsTopic, bytes));
            } catch (RuntimeException ex) {
                // an unreadable old report is treated as absent
                latest.remove(key);
            }
        });
        Map<String, ReportChunks.Assembly> chunked = new HashMap<>();
        latest.forEach((id, r) -> {
            if (ReportChunks.isChunked(r)) {
                chunked.put(id, new ReportChunks.Assembly(id, r.getArtifactSha256(), r.getArtifactChunks()));
            }
        });
        if (chunked.isEmpty()) {
            return latest;
        }
        TopicHistory.read(consumerProps, chunksTopic, (key, bytes) -> {
            int bar = key == null ? -1 : key.lastIndexOf('|');
            ReportChunks.Assembly a = bar < 0 || bytes == null ? null : chunked.get(key.substring(0, bar));
            if (a != null) {
                try {
                    a.add(chunkDeserializer.deserialize(chunksTopic, bytes));
                } catch (RuntimeException ex) {
                    // an unreadable chunk leaves its report incomplete
                }
            }
        });
        chunked.forEach((id, a) -> {
            try {
                latest.put(id, ReportChunks.withArtifact(latest.get(id), a.text()));
            } catch (IllegalStateException e) {
                LOG.warn("the stored report of run {} is treated as absent: {}", id, e.getMessage());
                latest.remove(id);
            }
        });
        return latest;
    }
}
