package io.capstream.cli.report;

import com.fasterxml.jackson.databind.JsonNode;
import io.capstream.aggregator.report.ReportChunks;
import io.capstream.cli.options.KafkaOptions;
import io.capstream.schemas.Topics;
import io.capstream.schemas.artifact.ArtifactJson;
import io.capstream.schemas.avro.BenchmarkReport;
import io.capstream.schemas.avro.ReportChunk;
import io.capstream.schemas.serde.SpecificAvroSerde;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;

/**
 * Where {@code capstream report} and {@code capstream compare} find a report: {@code RUN_ID|FILE}
 * names a report artifact on disk when it is an existing path, else a run id whose latest report is
 * read from {@code capstream.reports} ({@link StoredReports}, large reports put back together from
 * their chunks).
 */
public final class ReportSources {
    /** The artifact schema every report file names. */
    static final String SCHEMA = "anvil-serving.benchmark/v1";

    /**
     * A report found.
     *
     * @param source   what was asked (the file as given, or the run id)
     * @param artifact the report's artifact tree; not null
     * @param report   the typed report; not null
     */
    public record Found(String source, JsonNode artifact, BenchmarkReport report) {
    }

    /** A report that cannot be had: its one-line message names the source and why. */
    public static final class NotFound extends Exception {
        /** @param message e.g. {@code "x.json: not a report artifact (...)"} */
        public NotFound(String message) {
            super(message);
        }
    }

    private ReportSources() {
    }

    /**
     * @param arg a {@code RUN_ID|FILE} argument; not null
     * @return whether it names an existing path (then it is read as a file, never as a run id)
     */
    public static boolean isFile(String arg) {
        try {
            return Files.exists(Path.of(arg));
        } catch (java.nio.file.InvalidPathException e) {
            return false;
        }
    }

    /**
     * @param file a report artifact file; not null
     * @return the report
     * @throws NotFound when the file cannot be read, is not JSON or is not a report artifact (an
     *                  {@code anvil-serving.benchmark/v1} object with a {@code run_id})
     */
    public static Found fromFile(Path file) throws NotFound {
        JsonNode a;
        try {
            a = ArtifactJson.read(file);
        } catch (IOException | RuntimeException e) {
            throw new NotFound(file + ": cannot read a report (" + firstLine(e) + ")");
        }
        String problem = notAReport(a);
        if (problem != null) {
            throw new NotFound(file + ": not a report artifact (" + problem + ")");
        }
        return new Found(file.toString(), a, ArtifactRecords.report(a));
    }

    /**
     * Reads the latest report of each run id from {@code capstream.reports}.
     *
     * @param kafka  the Kafka and registry options (bootstrap servers and registry URL not null)
     * @param runIds run ids; not null
     * @return run id to its report, in the order asked; run ids without a readable report are absent
     * @throws IllegalStateException when the reports topic does not exist or cannot be read
     * @throws NotFound              when a stored report's artifact is not valid JSON
     */
    public static Map<String, Found> fromTopic(KafkaOptions kafka, Collection<String> runIds) throws NotFound {
        String url = kafka.schemaRegistryUrl();
        Map<String, BenchmarkReport> stored = StoredReports.latest(
                kafka.clientProperties().consumer(Map.of(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false)),
                Topics.REPORTS, Topics.REPORT_CHUNKS, runIds,
                SpecificAvroSerde.forValue(BenchmarkReport.class, url, kafka.registryClientConfig()).deserializer(),
                SpecificAvroSerde.forValue(ReportChunk.class, url, kafka.registryClientConfig()).deserializer());
        Map<String, Found> out = new LinkedHashMap<>();
        for (String id : runIds) {
            BenchmarkReport r = stored.get(id);
            if (r == null) {
                continue;
            }
            try {
                JsonNode tree = ArtifactJson.parse(r.getArtifactJson());
                // a chunked report's record leaves its failures to the artifact: type it from the artifact
                out.put(id, new Found(id, tree, ReportChunks.isChunked(r) ? ArtifactRecords.report(tree) : r));
            } catch (IOException e) {
                throw new NotFound(id + ": the stored report's artifact is not valid JSON (" + firstLine(e) + ")");
            }
        }
        return out;
    }

    /** @return why the tree is not a report artifact, or null when it is one */
    static String notAReport(JsonNode a) {
        if (a == null || !a.isObject()) {
            return "not a JSON object";
        }
        if (!SCHEMA.equals(a.path("schema").textValue())) {
            return "schema is not " + SCHEMA;
        }
        if (!a.path("run_id").isTextual()) {
            return "no run_id";
        }
        return null;
    }

    private static String firstLine(Exception e) {
        String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        int nl = m.indexOf('\n');
        return nl < 0 ? m : m.substring(0, nl);
    }
}
