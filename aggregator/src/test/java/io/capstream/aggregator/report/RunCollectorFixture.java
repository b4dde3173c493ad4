package io.capstream.aggregator.report;

import io.capstream.aggregator.report.state.RunEventBinarySerde;
import io.capstream.aggregator.report.state.RunProgressSerde;
import io.capstream.schemas.avro.BenchmarkReport;
import io.capstream.schemas.avro.RunEvent;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.BeforeEach;

/**
 * A {@link RunCollector} on a {@link MockProcessorContext} with the report topology's two stores (the
 * progress store over an in-memory one, and the events store; logging off), for tests that feed events and read the forwarded reports, and that start
 * a new collector instance on the same stores as a rebalance would. The context's system time starts at 1,000 ms.
 */
abstract class RunCollectorFixture {
    protected final ReportTopologyConfig config;
    protected MockProcessorContext<String, ReportOutput> context;
    protected KeyValueStore<String, RunEvent> events;
    /** The progress store (write-behind: {@link ProgressStore#flushCache} is what a commit calls). */
    protected ProgressStore progress;

    /** @param registryUrl the config's schema registry URL (a {@code mock://} scope of its own) */
    RunCollectorFixture(String registryUrl) {
        this.config = ReportTopologyConfig.defaults(registryUrl);
    }

    @BeforeEach
    void setUpStores() {
        context = new MockProcessorContext<>();
        context.setCurrentSystemTimeMs(1_000L);
        progress = ProgressStore.over(Stores.keyValueStoreBuilder(
                        Stores.inMemoryKeyValueStore(ReportTopology.PROGRESS_STORE), Serdes.String(), new RunProgressSerde()))
                .withLoggingDisabled().build();
        events = Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(ReportTopology.EVENTS_STORE),
                Serdes.String(), new RunEventBinarySerde()).withLoggingDisabled().build();
        progress.init(context.getStateStoreContext(), progress);
        events.init(context.getStateStoreContext(), events);
        context.addStateStore(progress);
        context.addStateStore(events);
    }

    /** @return a new collector on the shared stores (what a restart or rebalance starts) */
    protected RunCollector newInstance() {
        RunCollector c = new RunCollector(config);
        c.init(context);
        return c;
    }

    /** Processes the events in order, each keyed by its run id. */
    protected static void feed(RunCollector c, List<RunEvent> list) {
        for (RunEvent e : list) {
            c.process(new Record<>(e.getRunId(), e, 0L));
        }
    }

    /** @return the reports forwarded since the last call, in order (the forwards are then cleared) */
    protected List<BenchmarkReport> reports() {
        List<BenchmarkReport> out = new ArrayList<>();
        context.forwarded().forEach(f -> {
            if (f.record().value() instanceof ReportOutput.Report r) {
                out.add(r.report());
            }
        });
        context.resetForwards();
        return out;
    }
}
