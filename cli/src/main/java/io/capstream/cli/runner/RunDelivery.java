package io.capstream.cli.runner;

import io.capstream.cli.report.ReportWaiter;
import io.capstream.loadgen.emit.DeferredEventSink;
import io.capstream.loadgen.emit.EventSink;

/**
 * Where one run's events go and where its report comes from, made by {@link DeliverySession#newRun()}
 * for the three ways of {@code --event-delivery} (see {@link EventDelivery}):
 * <ul>
 *   <li><b>live</b>: the session's producer, through a view that counts this run's events only;</li>
 *   <li><b>deferred</b> on a running Kafka: the same behind a {@link DeferredEventSink};</li>
 *   <li><b>deferred, Kafka at the end</b> ({@link io.capstream.cli.stack.StackConfig#kafkaAtEnd()}): a
 *       {@link DeferredEventSink} whose delegate is opened after the last request: it starts the
 *       embedded broker and the aggregator, then the session's report waiter and producer, so that none
 *       of them runs while requests are in flight. When that fails, every event counts as undelivered
 *       and {@link #lastError()} says why.</li>
 * </ul>
 * The caller closes the sink (with its timeout): that flushes this run's events; the producer and the
 * waiter belong to the session.
 */
final class RunDelivery {
    private final DeliverySession session;
    private final EventSink sink;

    RunDelivery(DeliverySession session, EventSink sink) {
        this.session = session;
        this.sink = sink;
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
        return session.waiter();
    }

    /** @return why events were not delivered: the producer's last error or why Kafka did not start; null if none */
    String lastError() {
        String k = session.lastKafkaError();
        if (k != null) {
            return k;
        }
        return sink instanceof DeferredEventSink d ? d.openError() : null;
    }
}
