package io.capstream.aggregator.window;

import io.capstream.schemas.avro.WindowSummary;
import org.apache.kafka.streams.processor.api.FixedKeyProcessor;
import org.apache.kafka.streams.processor.api.FixedKeyProcessorContext;
import org.apache.kafka.streams.processor.api.FixedKeyRecord;

/**
 * Passes on a window's summary when the window closes, not its later updates (header
 * {@value LateRequests#UPDATE_HEADER}): SLO alerts and the window gauges judge each window once.
 */
final class FirstEmissions implements FixedKeyProcessor<String, WindowSummary, WindowSummary> {
    private FixedKeyProcessorContext<String, WindowSummary> context;

    @Override
    public void init(FixedKeyProcessorContext<String, WindowSummary> context) {
        this.context = context;
    }

    @Override
    public void process(FixedKeyRecord<String, WindowSummary> record) {
        if (record.headers().lastHeader(LateRequests.UPDATE_HEADER) == null) {
            context.forward(record);
        }
    }
}
