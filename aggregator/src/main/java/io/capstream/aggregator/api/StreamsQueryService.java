package io.capstream.aggregator.api;

import io.capstream.aggregator.AggregatorTopology;
import io.capstream.aggregator.events.RegistryHealth;
import io.capstream.aggregator.report.ReportChunks;
import io.capstream.aggregator.slo.SloTopology;
import io.capstream.aggregator.window.WindowTopology;
import io.capstream.aggregator.change.ChangeTopology;
import io.capstream.schemas.avro.BenchmarkReport;
import io.capstream.schemas.avro.ChangePoint;
import io.capstream.schemas.avro.ReportChunk;
import io.capstream.schemas.avro.SloBreach;
import io.capstream.schemas.avro.SloState;
import io.capstream.schemas.avro.WindowSummary;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.state.QueryableStoreType;
import org.apache.kafka.streams.state.QueryableStoreTypes;

/**
 * {@link QueryService} over Kafka Streams interactive queries of this instance's local stores
 * (one aggregator instance holds every partition; with several instances each answers for its
 * own partitions). Ready means Streams is RUNNING and the schema registry answers (the events
 * decoder, the reports read back and the periodic probe report to {@link RegistryHealth}); the
 * stores stay queryable during a registry outage.
 */
public final class StreamsQueryService implements QueryService {
    private final KafkaStreams streams;
    private final RegistryHealth registryHealth;

    /**
     * @param streams the running aggregator; not null
     */
    public StreamsQueryService(KafkaStreams streams) {
        this(streams, new RegistryHealth());
    }

    /**
     * @param streams        the running aggregator; not null
     * @param registryHealth what the events decoder reports about the schema registry (the instance
     *                       of the topology's config); not null
     */
    public StreamsQueryService(KafkaStreams streams, RegistryHealth registryHealth) {
        this.streams = Objects.requireNonNull(streams, "streams");
        this.registryHealth = Objects.requireNonNull(registryHealth, "registryHealth");
    }

    @Override
    public boolean ready() {
        return notReadyReason() == null;
    }

    @Override
    public String notReadyReason() {
        return notReadyReason(streams.state(), registryHealth);
    }

    /**
     * @param state  the Streams state; not null
     * @param health the registry health; not null
     * @return null when RUNNING and the registry answers, else why not (Streams first)
     */
    static String notReadyReason(KafkaStreams.State state, RegistryHealth health) {
        if (state != KafkaStreams.State.RUNNING) {
            return "Kafka Streams is " + state + ", not RUNNING";
        }
        return health.problem();
    }

    private <T> T store(String name, QueryableStoreType<T> type) {
        KafkaStreams.State state = streams.state();
        if (state != KafkaStreams.State.RUNNING) {
            throw new NotReadyException("Kafka Streams is " + state + ", not RUNNING", null);
        }
        try {
            return streams.store(StoreQueryParameters.fromNameAndType(name, type));
        } catch (InvalidStateStoreException e) {
            throw new NotReadyException("store " + name + " is not queryable now: " + e.getMessage(), e);
        }
    }

    @Override
    public List<BenchmarkReport> runs() {
        var store = store(AggregatorTopology.REPORTS_STORE, QueryableStoreTypes.<String, BenchmarkReport>keyValueStore());
        List<BenchmarkReport> out = new ArrayList<>();
        try (var it = store.all()) {
            it.forEachRemaining(kv -> {
                if (kv.value != null) {
                    out.add(kv.value);
                }
            });
        }
        out.sort(Comparator.comparing((BenchmarkReport r) -> r.getStartedAt() == null ? "" : r.getStartedAt())
                .thenComparing(BenchmarkReport::getRunId).reversed());
        return out;
    }

    @Override
    public Optional<BenchmarkReport> run(String runId) {
        var store = store(AggregatorTopology.REPORTS_STORE, QueryableStoreTypes.<String, BenchmarkReport>keyValueStore());
        return Optional.ofNullable(store.get(runId));
    }

    @Override
    public Optional<byte[]> artifact(String runId) {
        Optional<BenchmarkReport> found = run(runId);
        if (found.isEmpty() || !ReportChunks.isChunked(found.get())) {
            return found.map(r -> r.getArtifactJson().getBytes(StandardCharsets.UTF_8));
        }
        BenchmarkReport r = found.get();
        var chunks = store(AggregatorTopology.REPORT_CHUNKS_STORE,
                QueryableStoreTypes.<String, ReportChunk>keyValueStore());
        ReportChunks.Assembly assembly = new ReportChunks.Assembly(runId, r.getArtifactSha256(), r.getArtifactChunks());
        for (int i = 0; i < r.getArtifactChunks(); i++) {
            ReportChunk c = chunks.get(ReportChunks.chunkKey(runId, i));
            if (c == null || !assembly.add(c)) {
                // The global chunks store follows its topic on its own thread: it can be a moment behind.
                throw new NotReadyException("report of run " + runId + ": chunk " + i + " of " + r.getArtifactChunks()
                        + " is not loaded yet", null);
            }
        }
        return Optional.of(assembly.artifactBytes());
    }

    @Override
    public List<WindowSummary> summaries(String target, String model, long fromMs, long toMs) {
        var store = store(WindowTopology.SUMMARIES_STORE, QueryableStoreTypes.<String, WindowSummary>windowStore());
        List<WindowSummary> out = new ArrayList<>();
        try (var it = store.fetchAll(Instant.ofEpochMilli(fromMs), Instant.ofEpochMilli(toMs))) {
            it.forEachRemaining(kv -> {
                WindowSummary s = kv.value;
                if ((target == null || target.equals(s.getTarget())) && (model == null || model.equals(s.getModel()))) {
                    out.add(s);
                }
            });
        }
        out.sort(Comparator.comparingLong(WindowSummary::getWindowStartMs).thenComparing(WindowSummary::getTarget)
                .thenComparing(WindowSummary::getModel).thenComparing(WindowSummary::getContextBucket));
        return out;
    }

    @Override
    public List<SloBreach> alerts(long fromMs, long toMs) {
        var store = store(SloTopology.HISTORY_STORE, QueryableStoreTypes.<String, SloBreach>windowStore());
        List<SloBreach> out = new ArrayList<>();
        try (var it = store.fetchAll(Instant.ofEpochMilli(fromMs), Instant.ofEpochMilli(toMs))) {
            it.forEachRemaining(kv -> out.add(kv.value));
        }
        out.sort(Comparator.comparingLong(SloBreach::getWindowStartMs).thenComparingLong(SloBreach::getDetectedAtMs));
        return out;
    }

    @Override
    public List<ChangePoint> changes(long fromMs, long toMs) {
        var store = store(ChangeTopology.HISTORY_STORE, QueryableStoreTypes.<String, ChangePoint>windowStore());
        List<ChangePoint> out = new ArrayList<>();
        try (var it = store.fetchAll(Instant.ofEpochMilli(fromMs), Instant.ofEpochMilli(toMs))) {
            it.forEachRemaining(kv -> out.add(kv.value));
        }
        out.sort(Comparator.comparingLong(ChangePoint::getChangeWindowStartMs)
                .thenComparingLong(ChangePoint::getDetectedAtMs));
        return out;
    }

    @Override
    public List<SloBreach> activeBreaches() {
        var store = store(SloTopology.STATE_STORE, QueryableStoreTypes.<String, SloBreach>keyValueStore());
        List<SloBreach> out = new ArrayList<>();
        try (var it = store.all()) {
            it.forEachRemaining(kv -> {
                if (kv.value != null && kv.value.getState() == SloState.BREACH) {
                    out.add(kv.value);
                }
            });
        }
        return out;
    }
}
