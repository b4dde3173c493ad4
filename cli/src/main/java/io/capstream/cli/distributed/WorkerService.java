package io.capstream.cli.distributed;

import io.capstream.cli.options.KafkaClientProperties;
import io.capstream.loadgen.run.RunControl;
import io.capstream.schemas.avro.WorkerShare;
import io.capstream.schemas.registry.RegistryClientConfig;
import io.capstream.schemas.serde.SpecificAvroSerde;
import java.io.PrintStream;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.consumer.CommitFailedException;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.consumer.RangeAssignor;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RebalanceInProgressException;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * A long-running {@code capstream worker}: a member of the consumer group {@value #GROUP} subscribed to
 * every plan topic ({@link PlanTopic#PATTERN}) with {@link RangeAssignor}, so that the N members share
 * a run's N partitions one each, and a short metadata refresh, so that a new plan topic is seen within
 * about a second. For each share it is assigned it commits the share's offset first (at most once: a
 * share is never redone, also not by another member after a rebalance), estimates its clock offset over
 * {@link ControlTopic} and runs the share ({@link ShareRunner}) while it keeps polling (so that a long
 * share does not drop it from the group). It reads {@link ControlTopic}: a {@link ControlMessage#STOP} of a run
 * stops that run's shares here (requests in flight end, RunFinished says interrupted, or for a stop rule another
 * worker tripped records the rule {@code coordinator}); a share that trips one of its own stop rules (issue 30) is
 * reported to the coordinator as {@link ControlMessage#TRIPPED}, and a share it does not
 * run (stale start, missing API key variable, another plan) is reported to the coordinator as
 * {@link ControlMessage#REFUSED}. {@link #run()} blocks until {@link #stop()}; runs in progress are then asked to
 * stop and awaited. Thread-safe: {@link #stop()} may be called from any thread.
 */
public final class WorkerService {
    /** The workers' consumer group. */
    public static final String GROUP = "capstream-workers";
    /** Plan topic metadata refresh, ms (how soon a new plan topic is assigned). */
    static final int METADATA_MAX_AGE_MS = 1000;
    private static final Duration POLL = Duration.ofMillis(200);
    private static final long DRAIN_S = 60;
    private final KafkaClientProperties kafka;
    private final String registryUrl;
    private final RegistryClientConfig registryClient;
    private final String workerId;
    private final ShareRunner runner;
    private final PrintStream log;
    private final AtomicBoolean stopped = new AtomicBoolean();
    private final Set<RunControl> running = ConcurrentHashMap.newKeySet();
    private final Set<CompletableFuture<?>> inFlight = ConcurrentHashMap.newKeySet();
    private volatile KafkaConsumer<String, WorkerShare> consumer;
    /** Run controls of the shares in progress, by run id (a stop message stops them all). */
    private final Map<String, List<RunControl>> byRun = new ConcurrentHashMap<>();
    /** Run ids whose coordinator sent a stop, most recent last (a share of them taken later is not run). */
    private final Map<String, ControlMessage> stoppedRuns = new java.util.LinkedHashMap<>();
    private static final int MAX_STOPPED_RUNS = 1000;
    private volatile ControlListener listener;
    private volatile Producer<byte[], byte[]> probes;

    /**
     * @param kafka          client settings with the bootstrap servers set; not null
     * @param registryUrl    registry URL of the plan and the events; not null
     * @param registryClient registry client settings; not null
     * @param workerId       this worker's id (its events' worker_id, the consumer's client id); not null
     * @param runner         runs the shares; not null
     * @param log            one line per assignment, share started and share ended
     */
    public WorkerService(KafkaClientProperties kafka, String registryUrl, RegistryClientConfig registryClient,
                         String workerId, ShareRunner runner, PrintStream log) {
        this.kafka = kafka;
        this.registryUrl = registryUrl;
        this.registryClient = registryClient;
        this.workerId = workerId;
        this.runner = runner;
        this.log = log;
    }

    /**
     * Joins the group and runs the shares it is assigned until {@link #stop()}.
     *
     * @throws IllegalStateException when the control topic cannot be set up
     * @throws InterruptedException  when interrupted
     */
    public void run() throws InterruptedException {
        try (Producer<byte[], byte[]> probes = new KafkaProducer<>(kafka.producer(Map.of(
                ProducerConfig.ACKS_CONFIG, "1", ProducerConfig.LINGER_MS_CONFIG, 0)),
                new ByteArraySerializer(), new ByteArraySerializer());
             org.apache.kafka.clients.admin.Admin admin = org.apache.kafka.clients.admin.Admin.create(kafka.admin());
             KafkaConsumer<String, WorkerShare> c = new KafkaConsumer<>(consumerProps(), new StringDeserializer(),
                     SpecificAvroSerde.forValue(WorkerShare.class, registryUrl, registryClient).deserializer())) {
            ControlTopic.ensure(admin);
            ClockProbe probe = new ClockProbe(probes, System::currentTimeMillis);
            this.probes = probes;
            try {
                listener = ControlListener.start(kafka, "capstream-worker-control", this::onControl);
            } catch (RuntimeException e) {
                throw new IllegalStateException("cannot read " + ControlTopic.NAME + ": " + e.getMessage(), e);
            }
            consumer = c;
            if (stopped.get()) {
                return;
            }
            c.subscribe(PlanTopic.PATTERN, new ConsumerRebalanceListener() {
                @Override
                public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
                    // nothing to hand back: a share's offset is committed before it runs
                }

                @Override
                public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
                    if (!partitions.isEmpty()) {
                        log.println("capstream worker " + workerId + ": assigned " + partitions);
                    }
                }
            });
            log.println("capstream worker " + workerId + ": waiting for plans (group " + GROUP + ", topics "
                    + PlanTopic.PREFIX + "*)");
            while (!stopped.get()) {
                try {
                    for (ConsumerRecord<String, WorkerShare> r : c.poll(POLL)) {
                        TopicPartition tp = new TopicPartition(r.topic(), r.partition());
                        // at most once: the share is taken before it runs, so that no member runs it again
                        try {
                            c.commitSync(Map.of(tp, new OffsetAndMetadata(r.offset() + 1)));
                        } catch (CommitFailedException | RebalanceInProgressException e) {
                            // the partition moved to another member before this one took the share: it is that
                            // member's now (it reads it from the last committed offset)
                            log.println("capstream worker " + workerId + ": " + tp + " moved to another worker before"
                                    + " its share was taken");
                            continue;
                        }
                        start(r.value(), probe);
                    }
                } catch (WakeupException e) {
                    // stop() woke the poll
                }
            }
        } finally {
            consumer = null;
            drain();
            if (listener != null) {
                listener.close();
            }
            this.probes = null;
        }
    }

    /** A message on the control topic: a stop of a run this worker runs (or has not started yet). */
    private void onControl(ControlMessage m) {
        if (!ControlMessage.STOP.equals(m.type())) {
            return;
        }
        synchronized (stoppedRuns) {
            stoppedRuns.putIfAbsent(m.runId(), m);
            if (stoppedRuns.size() > MAX_STOPPED_RUNS) {
                stoppedRuns.remove(stoppedRuns.keySet().iterator().next());
            }
        }
        List<RunControl> controls = byRun.getOrDefault(m.runId(), List.of());
        if (!controls.isEmpty()) {
            log.println("capstream worker " + workerId + ": run " + m.runId() + ": stopped by its coordinator"
                    + (m.reason() == null ? "" : " (" + m.reason() + ")") + "; requests in flight end");
            controls.forEach(c -> stop(c, m));
        }
    }

    /**
     * Stops a share as its coordinator asks: for a stop rule another worker tripped (issue 30) the share records the
     * rule {@code coordinator}; otherwise it is interrupted.
     */
    private static void stop(RunControl c, ControlMessage m) {
        if (m.rule() != null) {
            c.requestStop(io.capstream.loadgen.stop.StopRuleChecker.COORDINATOR, "the coordinator stopped the run: "
                    + (m.reason() == null ? "stop rule " + m.rule() + " tripped" : m.reason()));
        } else {
            c.requestStop();
        }
    }

    private ControlMessage stoppedByCoordinator(String runId) {
        synchronized (stoppedRuns) {
            return stoppedRuns.get(runId);
        }
    }

    /** Tells the coordinator that a share tripped a stop rule (best effort, without blocking: an event loop calls). */
    private void tripped(WorkerShare ws, io.capstream.loadgen.stop.StopTrip trip) {
        Producer<byte[], byte[]> p = probes;
        if (p == null) {
            return;
        }
        log.println("capstream worker " + workerId + ": run " + ws.getRunId() + " share " + ws.getShare() + ": "
                + trip.describe() + "; telling the coordinator");
        try {
            p.send(new org.apache.kafka.clients.producer.ProducerRecord<>(ControlTopic.NAME,
                    ws.getRunId().getBytes(java.nio.charset.StandardCharsets.UTF_8),
                    ControlMessage.tripped(ws.getRunId(), ws.getShare(), workerId, trip.rule(), trip.detail())
                            .toBytes()));
        } catch (RuntimeException e) {
            log.println("capstream worker " + workerId + ": note: the coordinator of run " + ws.getRunId()
                    + " could not be told of the stop rule: " + e.getMessage());
        }
    }

    /** Tells the coordinator that a share was not run (best effort: a coordinator that is gone does not read it). */
    private void refuse(WorkerShare ws, String reason) {
        Producer<byte[], byte[]> p = probes;
        if (p == null) {
            return;
        }
        try {
            p.send(new org.apache.kafka.clients.producer.ProducerRecord<>(ControlTopic.NAME,
                    ws.getRunId().getBytes(java.nio.charset.StandardCharsets.UTF_8),
                    ControlMessage.refused(ws.getRunId(), ws.getShare(), workerId, reason).toBytes()));
        } catch (RuntimeException e) {
            log.println("capstream worker " + workerId + ": note: the coordinator of run " + ws.getRunId()
                    + " could not be told: " + e.getMessage());
        }
    }

    private void start(WorkerShare ws, ClockProbe probe) throws InterruptedException {
        String what = "run " + ws.getRunId() + " share " + ws.getShare() + "/" + ws.getShares();
        ClockOffset offset;
        try {
            offset = probe.measure(ClockProbe.DEFAULT_PROBES, workerId);
        } catch (IllegalStateException e) {
            log.println("capstream worker " + workerId + ": " + what + ": " + e.getMessage()
                    + "; running with an unknown clock offset");
            offset = ClockOffset.UNKNOWN;
        }
        log.printf("capstream worker %s: %s: %d slots, clock offset %+.1f ms +/- %.1f ms%n", workerId, what,
                ws.getConcurrency(), offset.offsetMs(), offset.uncertaintyMs());
        RunControl control = new RunControl();
        control.onTrip(trip -> tripped(ws, trip));
        running.add(control);
        byRun.computeIfAbsent(ws.getRunId(), k -> new java.util.concurrent.CopyOnWriteArrayList<>()).add(control);
        ControlMessage stop = stoppedByCoordinator(ws.getRunId());
        if (stop != null) {
            // the stop came before this share was taken or while the clock was probed: the share still starts, at
            // once, and sends only its RunFinished (interrupted or stopped, nothing sent), so that the run's report
            // completes
            log.println("capstream worker " + workerId + ": " + what + ": its coordinator stopped the run; nothing is"
                    + " sent");
            stop(control, stop);
        }
        CompletableFuture<?> f = runner.run(ws, workerId, offset, control).whenComplete((o, e) -> {
            running.remove(control);
            byRun.computeIfPresent(ws.getRunId(), (k, l) -> {
                l.remove(control);
                return l.isEmpty() ? null : l;
            });
            if (e != null) {
                Throwable t = e instanceof java.util.concurrent.CompletionException && e.getCause() != null
                        ? e.getCause() : e;
                log.println("capstream worker " + workerId + ": " + what + " not run: " + t.getMessage());
                if (!control.stopRequested()) {
                    refuse(ws, String.valueOf(t.getMessage())); // a stopped share is no refusal: its coordinator knows
                }
            } else {
                log.println("capstream worker " + workerId + ": " + what + " done: " + o.completed() + " completed, "
                        + o.failed() + " failed of " + o.requestsPlanned());
            }
        });
        inFlight.add(f);
        f.whenComplete((o, e) -> inFlight.remove(f));
    }

    private void drain() {
        running.forEach(RunControl::requestStop);
        CompletableFuture<?>[] all = inFlight.toArray(CompletableFuture[]::new);
        try {
            CompletableFuture.allOf(all).get(DRAIN_S, TimeUnit.SECONDS);
        } catch (Exception e) {
            // a share that did not end in time: its RunFinished may be missing (the report is then incomplete)
        }
    }

    /** Leaves the group: the poll loop ends, runs in progress are asked to stop and awaited. */
    public void stop() {
        stopped.set(true);
        KafkaConsumer<String, WorkerShare> c = consumer;
        if (c != null) {
            c.wakeup();
        }
    }

    private Map<String, Object> consumerProps() {
        return kafka.consumer(Map.of(
                ConsumerConfig.GROUP_ID_CONFIG, GROUP,
                ConsumerConfig.CLIENT_ID_CONFIG, "capstream-worker-" + workerId,
                ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG, RangeAssignor.class.getName(),
                ConsumerConfig.METADATA_MAX_AGE_CONFIG, METADATA_MAX_AGE_MS,
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false,
                ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 1));
    }
}
