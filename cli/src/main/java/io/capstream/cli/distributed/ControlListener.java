package io.capstream.cli.distributed;

import io.capstream.cli.options.KafkaClientProperties;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Reads the {@link ControlMessage}s sent to {@link ControlTopic} from the moment it starts (no consumer group:
 * every coordinator and worker reads them all) on a thread of its own, and hands each to a handler. Clock
 * probes are skipped. Thread-safe; {@link #close()} stops the thread.
 */
public final class ControlListener implements AutoCloseable {
    private static final Duration POLL = Duration.ofMillis(200);
    private static final Duration POSITION_TIMEOUT = Duration.ofSeconds(30);
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final Thread thread;
    private volatile boolean closed;

    private ControlListener(KafkaConsumer<byte[], byte[]> consumer, Consumer<ControlMessage> handler, String name) {
        this.consumer = consumer;
        this.thread = new Thread(() -> loop(handler), name);
        this.thread.setDaemon(true);
    }

    /**
     * Starts reading at the control topic's end: every message sent after this returns is handed over.
     *
     * @param kafka   client settings with the bootstrap servers set; not null
     * @param name    the reading thread's name
     * @param handler called on the reading thread for each message, in order; exceptions are swallowed
     * @return the running listener
     * @throws org.apache.kafka.common.KafkaException when the topic's end cannot be found within 30 s (the control
     *                                                topic must exist: {@link ControlTopic#ensure})
     */
    public static ControlListener start(KafkaClientProperties kafka, String name, Consumer<ControlMessage> handler) {
        KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(kafka.consumer(Map.of(
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
                ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false)),
                new ByteArrayDeserializer(), new ByteArrayDeserializer());
        try {
            TopicPartition tp = new TopicPartition(ControlTopic.NAME, 0);
            c.assign(List.of(tp));
            c.seekToEnd(List.of(tp));
            c.position(tp, POSITION_TIMEOUT); // resolved now: nothing sent after start() returns is missed
        } catch (RuntimeException e) {
            c.close(Duration.ofSeconds(5));
            throw e;
        }
        ControlListener l = new ControlListener(c, handler, name);
        l.thread.start();
        return l;
    }

    private void loop(Consumer<ControlMessage> handler) {
        try {
            while (!closed) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(POLL)) {
                    ControlMessage m = ControlMessage.parse(r.value());
                    if (m != null) {
                        try {
                            handler.accept(m);
                        } catch (RuntimeException e) {
                            // one bad message must not stop the listener
                        }
                    }
                }
            }
        } catch (WakeupException e) {
            // close()
        } catch (RuntimeException e) {
            // Kafka gone: no more messages; the run goes on without them
        } finally {
            consumer.close(Duration.ofSeconds(5));
        }
    }

    /** Stops the reading thread and waits for it (at most 10 s). */
    @Override
    public void close() {
        closed = true;
        consumer.wakeup();
        try {
            thread.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
