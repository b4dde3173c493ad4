package io.capstream.loadgen.emit;

import io.capstream.schemas.avro.RunEvent;
import java.util.List;

/** {@link EventSinkContract} for {@link InMemoryEventSink}: its destination is its own list, which never fails. */
class InMemoryEventSinkContractTest extends EventSinkContract {
    private InMemoryEventSink sink;

    @Override
    protected EventSink newSink() {
        sink = new InMemoryEventSink();
        return sink;
    }

    @Override
    protected List<RunEvent> delivered() {
        return sink == null ? List.of() : sink.events();
    }

    @Override
    protected EventSink newUndeliverableSink() {
        return null;
    }
}
