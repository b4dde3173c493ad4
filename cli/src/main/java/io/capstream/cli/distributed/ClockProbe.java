package io.capstream.cli.distributed;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.LongSupplier;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;

/**
 * Estimates this process's {@link ClockOffset} against the broker: sends {@code probes} small
 * records, one at a time, to {@link ControlTopic} (whose timestamps are the broker's log-append
 * times) and keeps the estimate of the one with the smallest round trip. Stateless apart from the
 * producer it is given (not closed).
 */
public final class ClockProbe {
    /** Default number of probes. */
    public static final int DEFAULT_PROBES = 10;
    private static final long ACK_TIMEOUT_S = 30;
    private final Producer<byte[], byte[]> producer;
    private final LongSupplier wallClockMs;

    /**
     * @param producer    a producer of the run's Kafka (acks at least 1); not null, not closed here
     * @param wallClockMs this process's wall clock, epoch ms ({@code System::currentTimeMillis})
     */
    public ClockProbe(Producer<byte[], byte[]> producer, LongSupplier wallClockMs) {
        this.producer = producer;
        this.wallClockMs = wallClockMs;
    }

    /**
     * @param probes number of probe records, &gt;= 1
     * @param from   who probes (record key, e.g. the worker id); not null
     * @return the estimate with the smallest round trip
     * @throws IllegalStateException when a probe is not acknowledged within 30 s or fails
     * @throws InterruptedException  when interrupted
     */
    public ClockOffset measure(int probes, String from) throws InterruptedException {
        List<ClockOffset> all = new ArrayList<>(probes);
        byte[] key = from.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        for (int i = 0; i < probes; i++) {
            long send = wallClockMs.getAsLong();
            RecordMetadata md;
            try {
                md = producer.send(new ProducerRecord<>(ControlTopic.NAME, key, new byte[0]))
                        .get(ACK_TIMEOUT_S, TimeUnit.SECONDS);
            } catch (ExecutionException | TimeoutException e) {
                throw new IllegalStateException("clock probe on " + ControlTopic.NAME + " failed: " + e.getMessage(), e);
            }
            long ack = wallClockMs.getAsLong();
            if (md.hasTimestamp()) {
                all.add(ClockOffset.ofProbe(send, ack, md.timestamp()));
            }
        }
        return ClockOffset.best(all);
    }
}
