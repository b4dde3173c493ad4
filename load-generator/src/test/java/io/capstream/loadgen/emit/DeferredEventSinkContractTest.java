package io.capstream.loadgen.emit;

import io.capstream.schemas.avro.RunEvent;
import java.util.List;

/**
 * {@link EventSinkContract} for {@link DeferredEventSink} over a late-opened {@link InMemoryEventSink};
 * the undeliverable variant's delegate cannot be opened (as when the embedded broker does not start).
 */
class DeferredEventSinkContractTest extends EventSinkContract {
    private InMemoryEventSink destination;

    @Override
    protected EventSink newSink() {
        InMemoryEventSink inner = new InMemoryEventSink();
        destination = inner;
        return new DeferredEventSink(() -> inner);
    }

    @Override
    protected List<RunEvent> delivered() {
        return destination == null ? List.of() : destination.events();
    }

    @Override
    protected EventSink newUndeliverableSink() {
        destination = null;
        return new DeferredEventSink(() -> {
            throw new IllegalStateException("contract: the delegate cannot be opened");
        });
    }
}
