package io.capstream.aggregator.api;

import io.capstream.aggregator.slo.Slo;
import io.capstream.schemas.avro.BenchmarkReport;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.avro.specific.SpecificRecord;

/** The JSON bodies of the {@link ApiServer}'s answers that are made here (not passed on as stored). Stateless. */
final class ApiJson {
    private ApiJson() {
    }

    /**
     * @param slos the SLOs
     * @return the {@code /api/slos} answer
     */
    static String slosJson(List<Slo> slos) {
        JsonArray a = new JsonArray();
        for (Slo s : slos) {
            a.add(new JsonObject().put("slo", s.text()).put("metric", s.metric())
                    .put("comparison", s.comparison().symbol()).put("threshold", s.threshold()));
        }
        return a.encode();
    }

    /**
     * @param records Avro records
     * @return a JSON array of their JSON forms (Avro field names)
     */
    static String toJsonArray(List<? extends SpecificRecord> records) {
        return records.stream().map(Object::toString).collect(Collectors.joining(",", "[", "]"));
    }

    /** @return the {@code /api/runs} header of one report */
    static JsonObject runHeader(BenchmarkReport r) {
        return new JsonObject()
                .put("run_id", r.getRunId())
                .put("model", r.getModel())
                .put("base_url", r.getBaseUrl())
                .put("started_at", r.getStartedAt())
                .put("finished_at", r.getFinishedAt())
                .put("requests", r.getRequests())
                .put("completed", r.getCompleted())
                .put("failed", r.getFailed())
                .put("kind", r.getProvenance() == null ? null : r.getProvenance().getKind().name())
                .put("complete", r.getProvenance() == null ? null : r.getProvenance().getComplete());
    }

    /** @return the {@code /api/runs} answer of this instance's reports */
    static String runHeaders(List<BenchmarkReport> reports) {
        return new JsonArray(reports.stream().map(ApiJson::runHeader).collect(Collectors.toList())).encode();
    }
}
