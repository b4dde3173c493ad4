/*
 * Writes every report artifact on capstream.reports (large ones assembled from capstream.reports.chunks), in the order
 * the reports were published, to DIR/<run id>.<n>.json (n = 1, 2, ... per run id), so that the artifacts of the same
 * fill made by two versions of `aggregate` can be compared (bench/windows/broker.sh with REPORTS_DUMP=DIR). A chunked
 * report whose chunks compaction has already removed (superseded by a later publication of the same run: the chunks
 * topic rolls 4 MiB segments) is counted and skipped; n still counts it, so the last n of a run id is its latest.
 *   java ReportsDump.java BOOTSTRAP REGISTRY DIR
 */
import io.capstream.aggregator.report.ReportChunks;
import io.capstream.schemas.avro.BenchmarkReport;
import io.capstream.schemas.avro.ReportChunk;
import io.capstream.schemas.serde.SpecificAvroSerde;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

public class ReportsDump {
    public static void main(String[] a) throws Exception {
        Path dir = Files.createDirectories(Path.of(a[2]));
        var chunkSerde = SpecificAvroSerde.forValue(ReportChunk.class, a[1]);
        var reportSerde = SpecificAvroSerde.forValue(BenchmarkReport.class, a[1]);
        Map<String, ReportChunks.Assembly> bySha = new HashMap<>();
        for (ConsumerRecord<byte[], byte[]> r : readAll(a[0], "capstream.reports.chunks")) {
            ReportChunk c = chunkSerde.deserializer().deserialize(r.topic(), r.value());
            bySha.computeIfAbsent(c.getArtifactSha256(), s -> ReportChunks.Assembly.forChunk(c)).add(c);
        }
        List<ConsumerRecord<byte[], byte[]>> reports = readAll(a[0], "capstream.reports");
        reports.sort(java.util.Comparator.comparingLong(ConsumerRecord::timestamp));
        Map<String, Integer> seen = new HashMap<>();
        int written = 0;
        int compacted = 0;
        for (ConsumerRecord<byte[], byte[]> r : reports) {
            BenchmarkReport rep = reportSerde.deserializer().deserialize(r.topic(), r.value());
            int n = seen.merge(rep.getRunId(), 1, Integer::sum);
            ReportChunks.Assembly chunks = bySha.get(rep.getArtifactSha256());
            if (rep.getArtifactChunks() > 0 && (chunks == null || !chunks.complete())) {
                compacted++;
                continue;
            }
            String text = rep.getArtifactChunks() > 0 ? chunks.text() : rep.getArtifactJson();
            Files.writeString(dir.resolve(rep.getRunId() + "." + n + ".json"), text, StandardCharsets.UTF_8);
            written++;
        }
        System.out.printf("reports-dump: %d artifacts of %d runs in %s (%d earlier ones' chunks compacted away)%n",
                written, seen.size(), dir, compacted);
    }

    static List<ConsumerRecord<byte[], byte[]>> readAll(String bootstrap, String topic) {
        List<ConsumerRecord<byte[], byte[]>> out = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(Map.of("bootstrap.servers", bootstrap,
                "isolation.level", "read_committed", "max.partition.fetch.bytes", 4 << 20),
                new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> parts = c.partitionsFor(topic).stream()
                    .map(p -> new TopicPartition(topic, p.partition())).toList();
            c.assign(parts);
            c.seekToBeginning(parts);
            Map<TopicPartition, Long> end = c.endOffsets(parts);
            while (parts.stream().anyMatch(p -> c.position(p) < end.get(p))) {
                c.poll(Duration.ofMillis(500)).forEach(out::add);
            }
        }
        return out;
    }
}
