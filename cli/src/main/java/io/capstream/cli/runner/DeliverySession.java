package io.capstream.cli.runner;

import io.capstream.cli.report.ReportWaiter;
import io.capstream.cli.stack.LocalStack;
import io.capstream.loadgen.emit.DeferredEventSink;
import io.capstream.loadgen.emit.EventSink;
import io.capstream.loadgen.emit.KafkaEventSink;
import io.capstream.loadgen.emit.KafkaSinkConfig;
import io.capstream.schemas.avro.RunEvent;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * The Kafka side of one or more consecutive runs on one {@link LocalStack}: one producer
 * ({@link KafkaEventSink}) and one {@link ReportWaiter}, opened once when the stack's Kafka parts are
 * up and shared by every run of the session ({@code run}: one; {@code sweep}: every step), so that a
 * later run pays no client start-up. Each run gets a {@link RunDelivery} ({@link #newRun()}) whose
 * sink counts only that run's events and whose close flushes them without closing the producer.
 *
 * <p>When the stack's Kafka has not started yet ({@link io.capstream.cli.stack.StackConfig#kafkaAtEnd()},
 * the embedded broker), the first run's sink is a {@link DeferredEventSink} whose delegate is opened
 * after that run's last request: it starts the broker and the aggregator ({@link LocalStack#startKafka}),
 * then the report waiter, the listeners of {@link #onKafkaReady}, and the producer, so that none of them
 * runs while requests are in flight. Later runs find Kafka running. With {@link EventDelivery} deferred
 * every run's events are held until its last request has ended. Thread-safe; close it (before the
 * stack) to close the waiter and the producer.
 */
public final class DeliverySession implements AutoCloseable {
    /** The last step of the deferred opening when the runs wait for their reports. */
    public static final String STEP_WAITER_AND_PRODUCER = "opening the report waiter and the producer";
    /** The last step of the deferred opening when they do not. */
    public static final String STEP_PRODUCER = "opening the producer";
    private final LocalStack stack;
    private final EventDelivery delivery;
    private final boolean awaitReport;
    private final PrintStream log;
    private final List<Consumer<LocalStack>> readyListeners = new ArrayList<>();
    private final Set<String> expected = new LinkedHashSet<>();
    private boolean opened;
    private volatile KafkaEventSink kafkaSink;
    private volatile ReportWaiter waiter;
    /** What the deferred sink's opening does now ({@link #kafkaStartStep()}). */
    private volatile String startStep = LocalStack.STEP_BROKER;

    private DeliverySession(LocalStack stack, EventDelivery delivery, boolean awaitReport, PrintStream log) {
        this.stack = stack;
        this.delivery = delivery;
        this.awaitReport = awaitReport;
        this.log = log;
    }

    /**
     * @param stack       the running stack (its Kafka parts started, or to start at the end of the first run)
     * @param delivery    the runs' {@code --event-delivery}; not null
     * @param awaitReport whether the runs wait for their reports (then a {@link #waiter()} is made)
     * @param log         where the late start of the stack's Kafka parts prints its lines (stderr)
     * @return the session; nothing is opened yet
     */
    public static DeliverySession open(LocalStack stack, EventDelivery delivery, boolean awaitReport, PrintStream log) {
        return new DeliverySession(stack, delivery, awaitReport, log);
    }

    /**
     * Registers a callback run once when the stack's Kafka parts are up and the report waiter is
     * attached, before any event of the session is sent (at once when that has already happened). It
     * runs on the thread that opens the session (with Kafka at the end: the deferred sink's opener) and
     * must not throw: an exception would count the run's events as undelivered.
     *
     * @param listener receives the stack; not null
     */
    public synchronized void onKafkaReady(Consumer<LocalStack> listener) {
        if (opened) {
            listener.accept(stack);
        } else {
            readyListeners.add(listener);
        }
    }

    /**
     * Registers interest in a run's report before its events are sent, so that a waiter already
     * following the topic cannot read the report before anybody waits for it. Before the waiter exists
     * the id is remembered and registered when it opens.
     *
     * @param runId the run id (the report's key); not null
     */
    public synchronized void expect(String runId) {
        if (!awaitReport) {
            return;
        }
        if (waiter != null) {
            waiter.expect(runId);
        } else {
            expected.add(runId);
        }
    }

    /**
     * @return the delivery of the next run: its events go to the session's producer, live or held
     *         (deferred) as configured; with Kafka still to start, the producer opens after the run
     */
    public RunDelivery newRun() {
        if (!stack.kafkaStarted()) {
            DeferredEventSink d = new DeferredEventSink(() -> {
                try {
                    stack.startKafka(log, step -> startStep = step);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while starting the embedded Kafka", e);
                } catch (Exception e) {
                    throw new IllegalStateException("the embedded Kafka or the report aggregator did not start: "
                            + e.getMessage(), e);
                }
                return new RunScopedSink(openKafka());
            });
            return new RunDelivery(this, d);
        }
        RunScopedSink scoped = new RunScopedSink(openKafka());
        return new RunDelivery(this, delivery.deferred(stack.embeddedKafka()) ? new DeferredEventSink(scoped) : scoped);
    }

    /**
     * @return what the opening of the first run's deferred sink does now, for its progress line: a step of
     *         {@link LocalStack#startKafka(PrintStream, Consumer)} ({@value LocalStack#STEP_BROKER} until the first
     *         one is known), then {@value #STEP_WAITER_AND_PRODUCER} or {@value #STEP_PRODUCER}; meaningful only
     *         while that sink is {@link DeferredEventSink#opening() opening}
     */
    public String kafkaStartStep() {
        return startStep;
    }

    /**
     * @return the waiter for the runs' reports on {@code capstream.reports}; null when the runs wait for
     *         none, or before the stack's Kafka has started (or when it did not start)
     */
    public ReportWaiter waiter() {
        return waiter;
    }

    /** @return the producer's last delivery error, or null */
    String lastKafkaError() {
        KafkaEventSink k = kafkaSink;
        return k == null ? null : k.lastError();
    }

    /** Opens the waiter, tells the listeners, then opens the producer; once. */
    private synchronized KafkaEventSink openKafka() {
        if (!opened) {
            opened = true;
            startStep = awaitReport ? STEP_WAITER_AND_PRODUCER : STEP_PRODUCER;
            if (awaitReport) {
                ReportWaiter w = ReportWaiter.forReports(stack.kafka(), stack.schemaRegistryUrl(), stack.registryClient())
                        .failWhen(stack::aggregatorFailure);
                waiter = w;
                expected.forEach(w::expect);
                expected.clear();
            }
            readyListeners.forEach(l -> l.accept(stack));
            readyListeners.clear();
            KafkaSinkConfig config = KafkaSinkConfig.of(stack.kafka().bootstrapServers(), stack.schemaRegistryUrl())
                    .withClientProperties(stack.kafka().userProperties()).withRegistryClient(stack.registryClient());
            kafkaSink = new KafkaEventSink(config);
        }
        return kafkaSink;
    }

    /** Closes the report waiter and the producer (waiting up to {@link RunDriver#SINK_CLOSE_TIMEOUT} for it). */
    @Override
    public void close() {
        ReportWaiter w = waiter;
        if (w != null) {
            w.close();
        }
        KafkaEventSink k = kafkaSink;
        if (k != null) {
            k.close(RunDriver.SINK_CLOSE_TIMEOUT);
        }
    }

    /**
     * One run's view of the session's producer: its counts start at zero when the run starts, and its
     * close flushes the run's events but leaves the producer open for the next run.
     */
    static final class RunScopedSink implements EventSink {
        private final KafkaEventSink shared;
        private final long undeliveredBefore;
        private final long handedOverBefore;

        RunScopedSink(KafkaEventSink shared) {
            this.shared = shared;
            this.undeliveredBefore = shared.undelivered();
            this.handedOverBefore = shared.handedOver();
        }

        @Override
        public void send(RunEvent event) {
            shared.send(event);
        }

        @Override
        public CompletableFuture<Long> flush() {
            return shared.flush().thenApply(u -> Math.max(0, u - undeliveredBefore));
        }

        @Override
        public long undelivered() {
            return Math.max(0, shared.undelivered() - undeliveredBefore);
        }

        @Override
        public long handedOver() {
            return Math.max(0, shared.handedOver() - handedOverBefore);
        }

        /** @return events of the session still waiting for Kafka (after a flush: this run's) */
        @Override
        public long pending() {
            return shared.pending();
        }

        /** @return the producer's last delivery error, or null */
        String lastError() {
            return shared.lastError();
        }

        /**
         * Flushes within the timeout; the producer stays open.
         *
         * @return this run's undelivered events, plus those still pending when the timeout expired
         */
        @Override
        public long close(Duration timeout) {
            try {
                return flush().get(Math.max(1, timeout.toMillis()), TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                return undelivered() + pending();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return undelivered() + pending();
            } catch (ExecutionException e) {
                return undelivered() + pending();
            }
        }
    }
}
