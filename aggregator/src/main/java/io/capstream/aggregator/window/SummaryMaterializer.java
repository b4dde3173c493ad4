package io.capstream.aggregator.window;

import io.capstream.schemas.avro.WindowSummary;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.WindowStore;

/**
 * Writes each closed window's summary into the queryable window store
 * {@link WindowTopology#SUMMARIES_STORE} (key {@code target|model|bucket}, timestamp = window
 * start, retention from the config) and forwards it unchanged.
 */
final class SummaryMaterializer implements Processor<String, WindowSummary, String, WindowSummary> {
    private ProcessorContext<String, WindowSummary> context;
    private WindowStore<String, WindowSummary> store;

    @Override
    public void init(ProcessorContext<String, WindowSummary> context) {
        this.context = context;
        this.store = context.getStateStore(WindowTopology.SUMMARIES_STORE);
    }

    @Override
    public void process(Record<String, WindowSummary> record) {
        WindowSummary s = record.value();
        store.put(new WindowKey(s.getTarget(), s.getModel(), s.getContextBucket()).encode(), s, s.getWindowStartMs());
        context.forward(record);
    }
}
