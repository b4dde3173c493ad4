package io.capstream.loadgen.emit;

import io.capstream.schemas.Topics;
import io.capstream.schemas.avro.RunEvent;
import java.util.List;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * {@link EventSinkContract} for {@link KafkaEventSink} over Kafka's {@link MockProducer} (no broker in
 * load-generator's tests): the destination is the producer's history, every send acknowledged at
 * once; the undeliverable variant's value serializer throws, as a registry that refuses the schema
 * makes the real one do.
 */
class KafkaEventSinkContractTest extends EventSinkContract {
    private MockProducer<String, RunEvent> producer;

    @Override
    protected EventSink newSink() {
        producer = new MockProducer<>(true, null, new StringSerializer(), (topic, value) -> new byte[] {1});
        return new KafkaEventSink(producer, Topics.EVENTS, 10_000);
    }

    @Override
    protected List<RunEvent> delivered() {
        return producer == null ? List.of() : producer.history().stream().map(ProducerRecord::value).toList();
    }

    @Override
    protected EventSink newUndeliverableSink() {
        producer = new MockProducer<>(true, null, new StringSerializer(), (topic, value) -> {
            throw new SerializationException("contract: the value cannot be serialized");
        });
        return new KafkaEventSink(producer, Topics.EVENTS, 10_000);
    }
}
