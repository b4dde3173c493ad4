package io.capstream.aggregator.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.capstream.aggregator.report.state.RunEventBinarySerde;
import io.capstream.schemas.avro.RunEvent;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.Test;

/**
 * Issue 31: publishing a run deletes its events from the events store without decoding them ({@code
 * KeyValueStore#delete} decodes the deleted value to return it: one Avro decode per request event of the run).
 */
class PublishedRunDeletionTest extends RunCollectorFixture {
    PublishedRunDeletionTest() {
        super("mock://published-run-deletion-test");
    }

    @Test
    void aPublishedRunsEventsAreDeletedWithoutBeingDecoded() {
        AtomicInteger decoded = new AtomicInteger();
        RunEventBinarySerde plain = new RunEventBinarySerde();
        Serde<RunEvent> counting = Serdes.serdeFrom(plain.serializer(), (topic, bytes) -> {
            decoded.incrementAndGet();
            return plain.deserializer().deserialize(topic, bytes);
        });
        MockProcessorContext<String, ReportOutput> ctx = new MockProcessorContext<>();
        ctx.setCurrentSystemTimeMs(1_000L);
        KeyValueStore<String, RunEvent> store = Stores.keyValueStoreBuilder(
                Stores.inMemoryKeyValueStore(ReportTopology.EVENTS_STORE), Serdes.String(), counting)
                .withLoggingDisabled().build();
        store.init(ctx.getStateStoreContext(), store);
        ctx.addStateStore(progress);
        ctx.addStateStore(store);
        RunCollector c = new RunCollector(config);
        c.init(ctx);

        List<RunEvent> run = TestRuns.run("deleted", 50);
        run.forEach(e -> c.process(new Record<>(e.getRunId(), e, 0L)));
        long reports = ctx.forwarded().stream().filter(f -> f.record().value() instanceof ReportOutput.Report).count();
        assertThat(reports).as("reports published").isEqualTo(1);
        assertThat(TestRuns.entries(store)).as("events left in the store after publishing").isZero(); // decodes none
        assertThat(decoded.get()).as("events decoded while the run was collected, published and deleted").isZero();
    }
}
