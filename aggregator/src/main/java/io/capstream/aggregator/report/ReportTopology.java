package io.capstream.aggregator.report;

import io.capstream.aggregator.events.EventsSource;
import io.capstream.schemas.avro.BenchmarkReport;
import io.capstream.schemas.avro.ReportChunk;
import io.capstream.schemas.avro.RunEvent;
import io.capstream.schemas.serde.SpecificAvroSerde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Branched;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;

/**
 * The per-run report topology: {@code capstream.events} (decoded by {@link EventsSource}) to
 * {@code capstream.reports} (one {@link BenchmarkReport} per run, key run id), computed by
 * {@code ReportCalculator} (spec §7–§9) when the run is complete, or after the incomplete-run
 * deadline. See {@link RunCollector} for the completion, duplicate and deadline rules. Reports too
 * large for one record put their artifact on {@code capstream.reports.chunks} ({@link ReportChunks});
 * runs whose report cannot be published go to the dead-letter topic with their run id.
 *
 * <p>State: {@value #PROGRESS_STORE} (one small progress value per open run, persistent, kept as an object
 * and written to RocksDB and the changelog once per commit: {@link ProgressStore}) and {@value #EVENTS_STORE} (each
 * event of an open run stored once, kept as an object and written once per commit with the run's other new events
 * as one batch record keyed {@code runId|B|<10-digit sequence>}, deleted when the run is published: {@link
 * EventsStore}, issue 31). Both are changelogged, and each event is written once, so the changelog grows with the
 * number of events, not with its square (ARCHITECTURE.md, "Measured ceilings"). The events store is in memory: it
 * holds only open runs (about 250 bytes per request event, e.g. 25 MB for 100 open runs of 1000 requests) and is
 * rebuilt from its changelog on restart (per-event records of earlier versions included); measured side by side on
 * this machine it cut the stream thread's CPU per event by about 40% against RocksDB with caching. The collector also keeps each open run as objects
 * ({@code OpenRun}), which more than doubles that memory per open run.
 * Run with {@code exactly_once_v2} ({@code io.capstream.aggregator.runtime.StreamsSettings}).
 */
public final class ReportTopology {
    /** Name of the per-run progress store. */
    public static final String PROGRESS_STORE = "capstream-report-progress";
    /** Name of the per-run events store. */
    public static final String EVENTS_STORE = "capstream-report-events";
    /** Header of a run's dead-letter record: what failed ({@value #STAGE_REPORT}). */
    public static final String H_ERROR_STAGE = "capstream.error.stage";
    /** Header of a run's dead-letter record: the run id (also the record key). */
    public static final String H_RUN_ID = "capstream.run.id";
    /** Value of {@value #H_ERROR_STAGE} when a run's report could not be published. */
    public static final String STAGE_REPORT = "report";

    private static final String OUT = "capstream-report-out-";

    private ReportTopology() {
    }

    /**
     * Adds the report processor and its sinks (reports, report chunks, dead letters) to a builder
     * that already has the events stream.
     *
     * @param events  decoded events keyed by run id (from {@link EventsSource#stream}); not null
     * @param builder the builder {@code events} belongs to; not null
     * @param config  settings; not null
     */
    public static void addTo(KStream<String, RunEvent> events, StreamsBuilder builder, ReportTopologyConfig config) {
        builder.addStateStore(ProgressStore.builder(PROGRESS_STORE));
        builder.addStateStore(EventsStore.builder(EVENTS_STORE));
        var out = events.process(() -> new RunCollector(config), Named.as("capstream-report-collector"),
                        PROGRESS_STORE, EVENTS_STORE)
                .split(Named.as(OUT))
                .branch((k, v) -> v instanceof ReportOutput.Chunk, Branched.as("chunk"))
                .branch((k, v) -> v instanceof ReportOutput.DeadLetter, Branched.as("dead"))
                .defaultBranch(Branched.as("report"));
        out.get(OUT + "chunk")
                .mapValues(v -> ((ReportOutput.Chunk) v).chunk(), Named.as("capstream-report-chunk-values"))
                .to(config.chunksTopic(), Produced.with(Serdes.String(),
                        SpecificAvroSerde.forValue(ReportChunk.class, config.schemaRegistryUrl(),
                                config.registryClient()))
                        .withName("capstream-report-chunks-sink"));
        out.get(OUT + "dead")
                .mapValues(v -> ((ReportOutput.DeadLetter) v).value(), Named.as("capstream-report-dlq-values"))
                .to(config.dlqTopic(), Produced.with(Serdes.String(), Serdes.ByteArray())
                        .withName("capstream-report-dlq-sink"));
        out.get(OUT + "report")
                .mapValues(v -> ((ReportOutput.Report) v).report(), Named.as("capstream-report-values"))
                .to(config.reportsTopic(), Produced.with(Serdes.String(),
                        SpecificAvroSerde.forValue(BenchmarkReport.class, config.schemaRegistryUrl(),
                                config.registryClient()))
                        .withName("capstream-reports-sink"));
    }

    /**
     * Builds a topology with only the report path (events source, dead-letter sink, reports and
     * report-chunks sinks).
     *
     * @param config settings; not null
     * @return the topology
     */
    public static Topology build(ReportTopologyConfig config) {
        StreamsBuilder builder = new StreamsBuilder();
        addTo(EventsSource.stream(builder, config.eventsSource()), builder, config);
        return builder.build();
    }
}
