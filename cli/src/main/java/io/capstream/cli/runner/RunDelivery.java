package io.capstream.cli.runner;

import io.capstream.cli.report.ReportWaiter;
import io.capstream.cli.stack.LocalStack;
import io.capstream.loadgen.emit.DeferredEventSink;
import io.capstream.loadgen.emit.EventSink;
import io.capstream.loadgen.emit.KafkaEventSink;
import io.capstream.loadgen.emit.KafkaSinkConfig;
import java.io.PrintStream;

/**
 * Where one run's events go and where its report comes from, for the three ways of
 * {@code --event-delivery} (see {@link EventDelivery}):
 * <ul>
 *   <li><b>live</b>: a {@link KafkaEventSink} on the stack's Kafka, the report waiter made up front;</li>
 *   <li><b>deferred</b> on a running Kafka: the same behind a {@link DeferredEventSink};</li>
 *   <li><b>deferred, Kafka at the end</b> ({@link io.capstream.cli.stack.StackConfig#kafkaAtEnd()}): a
 *       {@link DeferredEventSink} whose delegate is opened after the last request: it starts the
 *       embedded broker and the aggregator ({@link LocalStack#startKafka}), then the report waiter,
 *       then the Kafka sink, so that none of them runs while requests are in flight. When that fails,
 *       every event counts as undelivered and {@link #lastError()} says why.</li>
 * </ul>
 * Close it to close the report waiter (the sink is closed by the caller, with its timeout).
 */
final class RunDelivery implements AutoCloseable {
    private final LocalStack stack;
    private final boolean awaitReport;
    private final EventSink sink;
    private volatile KafkaEventSink kafkaSink;
    private volatile ReportWaiter waiter;

    private RunDelivery(LocalStack stack, boolean awaitReport, boolean deferred, boolean kafkaAtEnd, PrintStream log) {
        this.stack = stack;
        this.awaitReport = awaitReport;
        if (kafkaAtEnd) {
            this.sink = new DeferredEventSink(() -> {
                try {
                    stack.startKafka(log);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while starting the embedded Kafka", e);
                } catch (Exception e) {
                    throw new IllegalStateException("the embedded Kafka or the report aggregator did not start: "
                            + e.getMessage(), e);
                }
                openWaiter();
                return openKafkaSink();
            });
        } else {
            openWaiter();
            KafkaEventSink k = openKafkaSink();
            this.sink = deferred ? new DeferredEventSink(k) : k;
        }
    }

    /**
     * @param stack       the running stack (its Kafka started, unless {@code kafkaAtEnd})
     * @param delivery    the run's {@code --event-delivery}
     * @param awaitReport whether the run waits for its report (then a {@link #waiter()} is made)
     * @param log         where the late start of the stack's Kafka parts prints its lines (stderr)
     * @return the run's delivery; Kafka at the end when the stack has not started its Kafka parts
     */
    static RunDelivery open(LocalStack stack, EventDelivery delivery, boolean awaitReport, PrintStream log) {
        return new RunDelivery(stack, awaitReport, delivery.deferred(stack.embeddedKafka()), !stack.kafkaStarted(), log);
    }

    /** @return the sink the load generator sends to */
    EventSink sink() {
        return sink;
    }

    /**
     * @return the waiter for the run's report on {@code capstream.reports}; null when the run waits
     *         for none, or when Kafka was to start at the end and did not
     */
    ReportWaiter waiter() {
        return waiter;
    }

    /** @return why events were not delivered: the Kafka sink's last error or why Kafka did not start; null if none */
    String lastError() {
        KafkaEventSink k = kafkaSink;
        if (k != null && k.lastError() != null) {
            return k.lastError();
        }
        return sink instanceof DeferredEventSink d ? d.openError() : null;
    }

    private void openWaiter() {
        if (awaitReport) {
            waiter = ReportWaiter.forReports(stack.kafka(), stack.schemaRegistryUrl(), stack.registryClient())
                    .failWhen(stack::aggregatorFailure);
        }
    }

    private KafkaEventSink openKafkaSink() {
        KafkaSinkConfig config = KafkaSinkConfig.of(stack.kafka().bootstrapServers(), stack.schemaRegistryUrl())
                .withClientProperties(stack.kafka().userProperties()).withRegistryClient(stack.registryClient());
        KafkaEventSink k = new KafkaEventSink(config);
        kafkaSink = k;
        return k;
    }

    /** Closes the report waiter, if one was made. */
    @Override
    public void close() {
        ReportWaiter w = waiter;
        if (w != null) {
            w.close();
        }
    }
}
