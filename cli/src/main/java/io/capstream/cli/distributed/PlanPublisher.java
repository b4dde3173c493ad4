package io.capstream.cli.distributed;

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
    /** Period of the assignment look while waiting for one share per worker, ms. */
    private static final long ASSIGNMENT_POLL_MS = 200;
    private final Admin admin;
    private final KafkaClientProperties kafka;
    private final String registryUrl;
    private final RegistryClientConfig registryClient;

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
     * Creates the plan topic (empty) and waits until the workers' group has assigned its N partitions to N
     * distinct workers, so that no worker is handed two shares: with a pattern subscription, the worker that
     * sees a new topic first is assigned all of its partitions until the others subscribe to it too, and the
     * shares are written only after that ({@link #publish}).
     *
     * @param runId   the run id
     * @param shares  number of partitions (= workers), &gt;= 1
     * @param timeout how long to wait for one share per worker
     * @return the last status seen (check {@link ShareWatch.Status#oneSharePerWorker()}); null when Kafka never
     *         answered the look
     * @throws IllegalStateException when the topic cannot be created (it exists: a reused run id)
     * @throws InterruptedException  when interrupted
     */
    public ShareWatch.Status createAndAwaitAssignment(String runId, int shares, Duration timeout)
            throws InterruptedException {
        PlanTopic.create(admin, runId, shares);
        long deadline = System.nanoTime() + timeout.toNanos();
        ShareWatch.Status last = null;
        while (true) {
            ShareWatch.Status s = shares(runId, shares);
            last = s == null ? last : s;
            if ((s != null && s.oneSharePerWorker()) || System.nanoTime() >= deadline) {
                return last;
            }
            Thread.sleep(ASSIGNMENT_POLL_MS);
        }
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
        admin.close(Duration.ofSeconds(5));
    }
}
