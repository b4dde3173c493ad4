package io.capstream.loadgen.emit;

import io.capstream.schemas.avro.RunEvent;
import io.capstream.schemas.serde.SpecificAvroSerde;
import io.capstream.schemas.time.CapClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * {@link EventSink} to Kafka: an idempotent producer with {@code acks=all}, key = run id, value =
 * {@link RunEvent} in the Confluent Avro wire format. {@link #send} only puts the event into a
 * bounded in-memory queue; a dedicated thread hands events to the producer (serialisation, schema
 * registration and a blocked metadata fetch therefore never touch the caller's event loop). Events
 * that fail (delivery error, timeout, serialisation error) or do not fit into the queue are counted
 * in {@link #undelivered()}.
 *
 * <p>Unreachable broker: the producer blocks up to {@code max.block.ms} (default here 10 s) per
 * {@code send()} waiting for metadata. The sender retries the event at the head of the queue while
 * it is younger than the delivery timeout; once the broker is known to be down, events older than
 * the delivery timeout fail at once instead of blocking again, so a flush or close during an
 * outage ends after about {@code delivery.timeout.ms + max.block.ms} with every event accounted for.
 */
public final class KafkaEventSink implements EventSink {
    private static final Object CLOSE = new Object();

    /** An event waiting in the queue, with the time it was handed over. */
    private record Pending(RunEvent event, long enqueuedNs) {
    }

    private final Producer<String, RunEvent> producer;
    private final String topic;
    private final int capacity;
    private final LinkedBlockingQueue<Object> queue = new LinkedBlockingQueue<>();
    private final AtomicInteger queuedEvents = new AtomicInteger();
    private final AtomicLong accepted = new AtomicLong();
    private final AtomicLong acked = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private final AtomicLong dropped = new AtomicLong();
    private final Thread sender;
    private final long deliveryTimeoutNs;
    private final CapClock clock;
    private volatile boolean closed;
    private volatile String lastError;
    private boolean inSend;
    private Exception syncError;
    private boolean brokerDown;

    /**
     * Creates the producer and starts the sender thread.
     *
     * @param config settings
     */
    public KafkaEventSink(KafkaSinkConfig config) {
        this(createProducer(config), config.topic(), config.bufferCapacity(), config.deliveryTimeoutMs());
    }

    /**
     * For tests: wraps an existing producer (e.g. a {@code MockProducer}).
     *
     * @param producer the producer (closed by {@link #close(Duration)})
     * @param topic    topic
     * @param capacity queue capacity, events
     */
    public KafkaEventSink(Producer<String, RunEvent> producer, String topic, int capacity) {
        this(producer, topic, capacity, 120_000);
    }

    /**
     * For tests: wraps an existing producer.
     *
     * @param producer          the producer (closed by {@link #close(Duration)})
     * @param topic             topic
     * @param capacity          queue capacity, events
     * @param deliveryTimeoutMs how long an event may wait for an unreachable broker, ms
     */
    public KafkaEventSink(Producer<String, RunEvent> producer, String topic, int capacity, int deliveryTimeoutMs) {
        this(producer, topic, capacity, deliveryTimeoutMs, CapClock.system());
    }

    /**
     * For tests: wraps an existing producer, with the clock of the delivery timeout and of {@link #close}'s deadline.
     *
     * @param producer          the producer (closed by {@link #close(Duration)})
     * @param topic             topic
     * @param capacity          queue capacity, events
     * @param deliveryTimeoutMs how long an event may wait for an unreachable broker, ms
     * @param clock             the clock of the timeouts; not null
     */
    public KafkaEventSink(Producer<String, RunEvent> producer, String topic, int capacity, int deliveryTimeoutMs,
                          CapClock clock) {
        this.clock = clock;
        this.deliveryTimeoutNs = deliveryTimeoutMs * 1_000_000L;
        this.producer = producer;
        this.topic = topic;
        this.capacity = capacity;
        this.sender = new Thread(this::loop, "capstream-kafka-sink");
        this.sender.setDaemon(true);
        this.sender.start();
    }

    private static Producer<String, RunEvent> createProducer(KafkaSinkConfig c) {
        Map<String, Object> p = new HashMap<>();
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 10_000);
        p.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, 4 * 1024 * 1024);
        p.putAll(c.clientProperties());
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, c.bootstrapServers());
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, c.deliveryTimeoutMs());
        p.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, Math.min(30_000, c.deliveryTimeoutMs() - 5));
        p.put(ProducerConfig.LINGER_MS_CONFIG, Math.min(5, c.deliveryTimeoutMs() / 4));
        return new KafkaProducer<>(p, new StringSerializer(), valueSerializer(c));
    }

    /**
     * @param c settings
     * @return the producer's value serializer: registry URL and client settings (credentials) of {@code c}
     */
    static Serializer<RunEvent> valueSerializer(KafkaSinkConfig c) {
        return SpecificAvroSerde.forValue(RunEvent.class, c.schemaRegistryUrl(), c.registryClient()).serializer();
    }

    @Override
    public void send(RunEvent event) {
        if (closed || queuedEvents.incrementAndGet() > capacity) {
            if (!closed) {
                queuedEvents.decrementAndGet();
            }
            dropped.incrementAndGet();
            lastError = closed ? "sink closed" : "event buffer full (" + capacity + " events)";
            return;
        }
        accepted.incrementAndGet();
        queue.add(new Pending(event, clock.nanoTime()));
    }

    @Override
    public CompletableFuture<Long> flush() {
        CompletableFuture<Long> f = new CompletableFuture<>();
        if (!sender.isAlive()) {
            f.complete(undelivered());
        } else {
            queue.add(f);
        }
        return f;
    }

    @Override
    public long undelivered() {
        return failed.get() + dropped.get();
    }

    /** @return events given to {@link #send}: accepted into the queue or dropped */
    @Override
    public long handedOver() {
        return accepted.get() + dropped.get();
    }

    /** @return accepted events neither acknowledged by Kafka nor failed yet (queued or in flight) */
    @Override
    public long pending() {
        return Math.max(0, accepted.get() - acked.get() - failed.get());
    }

    /** @return the text of the last delivery error, or null */
    public String lastError() {
        return lastError;
    }

    @Override
    public long close(Duration timeout) {
        long deadline = clock.nanoTime() + timeout.toNanos();
        if (!closed) {
            closed = true;
            queue.add(CLOSE);
        }
        try {
            sender.join(Math.max(1, timeout.toMillis()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (sender.isAlive()) {
            sender.interrupt();
        }
        long left = Math.max(0, deadline - clock.nanoTime());
        try {
            producer.close(Duration.ofNanos(left));
        } catch (RuntimeException e) {
            lastError = e.toString();
        }
        // events never handed to the producer, or handed but neither acknowledged nor failed
        long pending = accepted.get() - acked.get() - failed.get();
        return failed.get() + dropped.get() + Math.max(0, pending);
    }

    private void loop() {
        List<CompletableFuture<Long>> flushes = new ArrayList<>();
        try {
            while (true) {
                Object o = queue.poll(100, TimeUnit.MILLISECONDS);
                if (o == null) {
                    continue;
                }
                if (o instanceof Pending e) {
                    queuedEvents.decrementAndGet();
                    hand(e);
                } else if (o instanceof CompletableFuture<?> f) {
                    @SuppressWarnings("unchecked")
                    CompletableFuture<Long> lf = (CompletableFuture<Long>) f;
                    flushes.add(lf);
                    if (!queue.isEmpty() && !(queue.peek() == CLOSE)) {
                        continue; // flush after the events queued before it are handed
                    }
                    safeFlush();
                    long u = undelivered();
                    flushes.forEach(x -> x.complete(u));
                    flushes.clear();
                } else if (o == CLOSE) {
                    Object rest;
                    while ((rest = queue.poll()) != null) {
                        if (rest instanceof Pending e) {
                            queuedEvents.decrementAndGet();
                            hand(e);
                        } else if (rest instanceof CompletableFuture<?> f) {
                            @SuppressWarnings("unchecked")
                            CompletableFuture<Long> lf = (CompletableFuture<Long>) f;
                            flushes.add(lf);
                        }
                    }
                    safeFlush();
                    long u = undelivered();
                    flushes.forEach(x -> x.complete(u));
                    return;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            long u = undelivered();
            flushes.forEach(x -> x.complete(u));
            Object rest;
            while ((rest = queue.poll()) != null) {
                if (rest instanceof CompletableFuture<?> f) {
                    @SuppressWarnings("unchecked")
                    CompletableFuture<Long> lf = (CompletableFuture<Long>) f;
                    lf.complete(u);
                }
            }
        }
    }

    private void safeFlush() {
        try {
            producer.flush();
        } catch (RuntimeException e) {
            lastError = e.toString();
        }
    }

    private void hand(Pending p) {
        RunEvent e = p.event();
        while (true) {
            if (brokerDown && clock.nanoTime() - p.enqueuedNs() > deliveryTimeoutNs) {
                failed.incrementAndGet(); // waited longer than the delivery timeout for a broker that is down
                return;
            }
            syncError = null;
            inSend = true;
            try {
                producer.send(new ProducerRecord<>(topic, e.getRunId(), e), (md, ex) -> {
                    if (ex == null) {
                        acked.incrementAndGet();
                    } else if (inSend && Thread.currentThread() == sender) {
                        syncError = ex; // failed inside send() (metadata timeout, serialisation): decided below
                    } else {
                        failed.incrementAndGet();
                        lastError = ex.toString();
                    }
                });
            } catch (RuntimeException ex) {
                syncError = ex;
            } finally {
                inSend = false;
            }
            if (syncError == null) {
                brokerDown = false;
                return;
            }
            lastError = syncError.toString();
            if (!(syncError instanceof org.apache.kafka.common.errors.TimeoutException) || Thread.currentThread().isInterrupted()) {
                failed.incrementAndGet();
                return;
            }
            brokerDown = true; // metadata did not arrive within max.block.ms: retry while the event is young enough
        }
    }
}
