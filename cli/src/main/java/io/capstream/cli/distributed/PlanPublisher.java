package io.capstream.cli.distributed;

import io.capstream.schemas.time.CapClock;
import io.capstream.cli.options.KafkaClientProperties;
import io.capstream.loadgen.run.PlanShare;
import io.capstream.loadgen.run.RunConfig;
import io.capstream.schemas.avro.RunStarted;
import io.capstream.schemas.avro.WorkerShare;
import io.capstream.schemas.registry.RegistryClientConfig;
import io.capstream.schemas.serde.SpecificAvroSerde;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The coordinator's side of a distributed run: estimates its clock offset over {@link ControlTopic},
 * creates the {@link PlanTopic} with one partition per worker, waits until Kafka's partition assignment
 * has given each of N workers one partition, picks the shared start instant (broker clock: now on the
 * broker plus a lead time, so that every worker has its share and has warmed up by then) and writes share
 * {@code k} to partition {@code k}, which the worker holding it reads. One instance per coordinator process; not thread-safe.
 */
public final class PlanPublisher implements AutoCloseable {
    /** Default lead time between the publication and the shared start instant. */
    public static final Duration DEFAULT_LEAD = Duration.ofSeconds(3);
    private static final long SEND_TIMEOUT_S = 30;
    private final Admin admin;
    private final KafkaClientProperties kafka;
    private final String registryUrl;
    private final RegistryClientConfig registryClient;
    /** Producer of control messages, made at the first one. */
    private Producer<byte[], byte[]> control;

    /**
     * @param kafka          client settings with the bootstrap servers set; not null
     * @param registryUrl    registry URL for the plan's serde; not null
     * @param registryClient registry client settings; not null
     */
    public PlanPublisher(KafkaClientProperties kafka, String registryUrl, RegistryClientConfig registryClient) {
        this.kafka = kafka;
        this.registryUrl = registryUrl;
        this.registryClient = registryClient;
        this.admin = Admin.create(kafka.admin());
    }

    /**
     * Ensures the control topic and estimates this process's clock offset against the broker.
     *
     * @param from who probes (probe record key)
     * @return the offset
     * @throws IllegalStateException when Kafka does not answer or the control topic is misconfigured
     * @throws InterruptedException  when interrupted
     */
    public ClockOffset clockOffset(String from) throws InterruptedException {
        ControlTopic.ensure(admin);
        try (Producer<byte[], byte[]> p = new KafkaProducer<>(kafka.producer(Map.of(
                ProducerConfig.ACKS_CONFIG, "1", ProducerConfig.LINGER_MS_CONFIG, 0)),
                new ByteArraySerializer(), new ByteArraySerializer())) {
            return new ClockProbe(p, System::currentTimeMillis).measure(ClockProbe.DEFAULT_PROBES, from);
        }
    }

    /**
     * Dates the plan ({@link ControlMessage#PLAN} on the control topic, for {@link PlanCleanup}), creates the plan
     * topic (empty) and waits until the workers' group has assigned its N partitions to N distinct workers, so that
     * no worker is handed two shares: with a pattern subscription, the worker that sees a new topic first is
     * assigned all of its partitions until the others subscribe to it too, and the shares are written only after
     * that ({@link #publish}). The wait is {@link AssignmentWait}'s: at most {@code timeout}, and
     * {@link AssignmentWait#NO_WORKER_WAIT} when no worker is in the group.
     *
     * @param runId   the run id
     * @param shares  number of partitions (= workers), &gt;= 1
     * @param timeout how long to wait for one share per worker
     * @param stopped whether the run was asked to stop (ends the wait)
     * @return how the wait ended
     * @throws IllegalStateException when the topic cannot be created (it exists: a reused run id)
     * @throws InterruptedException  when interrupted
     */
    public AssignmentWait.Result createAndAwaitAssignment(String runId, int shares, Duration timeout,
                                                          java.util.function.BooleanSupplier stopped)
            throws InterruptedException {
        send(ControlMessage.plan(runId));
        PlanTopic.create(admin, runId, shares);
        return new AssignmentWait(timeout, System::nanoTime, Thread::sleep).await(() -> shares(runId, shares), stopped);
    }

    /**
     * Sends a message to the workers (or dates a plan) on the control topic.
     *
     * @param message the message; not null
     * @return null when it was acknowledged, else why not
     * @throws InterruptedException when interrupted
     */
    public String send(ControlMessage message) throws InterruptedException {
        if (control == null) {
            control = new KafkaProducer<>(kafka.producer(Map.of(ProducerConfig.ACKS_CONFIG, "all",
                    ProducerConfig.LINGER_MS_CONFIG, 0)), new ByteArraySerializer(), new ByteArraySerializer());
        }
        return ControlTopic.send(control, message);
    }

    /**
     * Reads the workers' messages about one run from now on (call it before the plan is written).
     *
     * @param runId   the run id
     * @param handler called on the listener's thread with each message about {@code runId}
     * @return the running listener (close it)
     */
    public ControlListener listen(String runId, java.util.function.Consumer<ControlMessage> handler) {
        return ControlListener.start(kafka, "capstream-coordinator-control", m -> {
            if (runId.equals(m.runId())) {
                handler.accept(m);
            }
        });
    }

    /**
     * Deletes the plan topics other coordinators left behind ({@link PlanCleanup}).
     *
     * @param offset this process's clock offset to the broker
     * @return the plan topics deleted
     * @throws InterruptedException when interrupted
     */
    public java.util.List<String> deleteStalePlans(ClockOffset offset) throws InterruptedException {
        return deleteStalePlans(offset, CapClock.system());
    }

    /**
     * Deletes the plan topics other coordinators left behind ({@link PlanCleanup}).
     *
     * @param offset this process's clock offset to the broker
     * @param clock  this process's clock (now, and the control topic's read deadline); not null
     * @return the plan topics deleted
     * @throws InterruptedException when interrupted
     */
    public java.util.List<String> deleteStalePlans(ClockOffset offset, CapClock clock) throws InterruptedException {
        return PlanCleanup.deleteStale(admin, kafka, offset.toBroker(clock.millis()), clock);
    }

    /**
     * Writes one share per partition of the plan topic {@link #createAndAwaitAssignment} created.
     *
     * @param runId         the run id
     * @param coordinatorId worker id of the coordinator's RunStarted
     * @param started       the RunStarted payload (expected_workers = shares)
     * @param config        the coordinator's config
     * @param shares        number of workers, &gt;= 1
     * @param startBrokerMs the shared T0 on the broker's clock, epoch ms
     * @throws IllegalStateException when a share is not acknowledged in 30 s
     * @throws InterruptedException  when interrupted
     */
    public void publish(String runId, String coordinatorId, RunStarted started, RunConfig config, int shares,
                        long startBrokerMs) throws InterruptedException {
        try (Producer<String, WorkerShare> p = new KafkaProducer<>(kafka.producer(Map.of(
                ProducerConfig.ACKS_CONFIG, "all", ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true)),
                new StringSerializer(),
                SpecificAvroSerde.forValue(WorkerShare.class, registryUrl, registryClient).serializer())) {
            for (int k = 0; k < shares; k++) {
                WorkerShare ws = WorkerShares.build(runId, coordinatorId, started, config, new PlanShare(k, shares),
                        startBrokerMs);
                p.send(new ProducerRecord<>(PlanTopic.name(runId), k, runId, ws)).get(SEND_TIMEOUT_S, TimeUnit.SECONDS);
            }
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("cannot write the plan to " + PlanTopic.name(runId) + ": "
                    + (e.getCause() == null ? e.toString() : e.getCause().getMessage()), e);
        }
    }

    /**
     * @param runId  the run id
     * @param shares number of shares published
     * @return which shares the workers have taken ({@link ShareWatch}); null when Kafka did not answer in 2 s
     *         or refused (the look is best effort: a run does not depend on it)
     * @throws InterruptedException when interrupted
     */
    public ShareWatch.Status shares(String runId, int shares) throws InterruptedException {
        try {
            return ShareWatch.status(admin, runId, shares, Duration.ofSeconds(2));
        } catch (ExecutionException | TimeoutException e) {
            return null;
        }
    }

    /**
     * @param runId the run id
     * @return null when the plan topic was deleted, else why not (best effort)
     */
    public String deletePlan(String runId) {
        return PlanTopic.delete(admin, runId);
    }

    @Override
    public void close() {
        if (control != null) {
            control.close(Duration.ofSeconds(5));
        }
        admin.close(Duration.ofSeconds(5));
    }
}
