package io.capstream.cli.distributed;

import io.capstream.schemas.time.CapClock;
import java.time.Duration;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * The control topic {@value #NAME} of distributed runs: one partition, {@code
 * message.timestamp.type=LogAppendTime} (so a produced record's timestamp is the broker's clock) and a
 * short retention; the workers and the coordinator send small probe records to it to estimate their
 * {@link ClockOffset}, and the {@link ControlMessage}s between a coordinator and its workers go through it
 * (plan dates, stops, refusals). Created when missing.
 */
public final class ControlTopic {
    /** Topic name. */
    public static final String NAME = "capstream.control";
    /** Retention of probe records, ms (1 hour: nobody reads them back). */
    static final long RETENTION_MS = 3_600_000L;
    private static final long TIMEOUT_S = 30;
    /** Bound of a control message's acknowledgement, s. */
    private static final long SEND_TIMEOUT_S = 10;
    /** Pause before describing a just-created topic again, ms. */
    private static final Duration RETRY = Duration.ofMillis(100);

    private ControlTopic() {
    }

    /**
     * Creates the topic when it is missing and checks that the broker stamps its records.
     *
     * @param admin an admin client of the run's Kafka; not null
     * @throws IllegalStateException when the topic exists with another timestamp type (its records would carry
     *                               the client's time, not the broker's), or Kafka does not answer in 30 s
     * @throws InterruptedException  when interrupted
     */
    public static void ensure(Admin admin) throws InterruptedException {
        ensure(admin, CapClock.system());
    }

    /**
     * As {@link #ensure(Admin)}, waiting on {@code clock} while the broker does not know the topic yet.
     *
     * @param admin an admin client of the run's Kafka; not null
     * @param clock the clock of the retries' deadline and pauses; not null
     * @throws IllegalStateException as {@link #ensure(Admin)}
     * @throws InterruptedException  when interrupted
     */
    public static void ensure(Admin admin, CapClock clock) throws InterruptedException {
        NewTopic topic = new NewTopic(NAME, Optional.of(1), Optional.empty()).configs(Map.of(
                TopicConfig.MESSAGE_TIMESTAMP_TYPE_CONFIG, "LogAppendTime",
                TopicConfig.RETENTION_MS_CONFIG, Long.toString(RETENTION_MS)));
        try {
            admin.createTopics(List.of(topic)).all().get(TIMEOUT_S, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw new IllegalStateException("cannot create " + NAME + ": " + e.getCause().getMessage(), e);
            }
        } catch (TimeoutException e) {
            throw new IllegalStateException("cannot create " + NAME + ": no answer from Kafka in " + TIMEOUT_S + " s", e);
        }
        ConfigResource res = new ConfigResource(ConfigResource.Type.TOPIC, NAME);
        Config config = describe(() -> admin.describeConfigs(List.of(res)).all().get(TIMEOUT_S, TimeUnit.SECONDS).get(res),
                Duration.ofSeconds(TIMEOUT_S), clock);
        var type = config.get(TopicConfig.MESSAGE_TIMESTAMP_TYPE_CONFIG);
        if (type != null && !"LogAppendTime".equals(type.value())) {
            throw new IllegalStateException(NAME + " has " + TopicConfig.MESSAGE_TIMESTAMP_TYPE_CONFIG + "="
                    + type.value() + "; the clock offset needs LogAppendTime (delete the topic or alter its config)");
        }
    }

    /**
     * Sends one {@link ControlMessage} (key: its run id) and waits for its acknowledgement.
     *
     * @param producer a producer of the run's Kafka; not null, not closed here
     * @param message  the message; not null
     * @return null when it was acknowledged, else why not (the sender goes on: messages are best effort)
     * @throws InterruptedException when interrupted
     */
    public static String send(org.apache.kafka.clients.producer.Producer<byte[], byte[]> producer, ControlMessage message)
            throws InterruptedException {
        try {
            producer.send(new org.apache.kafka.clients.producer.ProducerRecord<>(NAME,
                    message.runId().getBytes(java.nio.charset.StandardCharsets.UTF_8), message.toBytes()))
                    .get(SEND_TIMEOUT_S, TimeUnit.SECONDS);
            return null;
        } catch (ExecutionException e) {
            return "cannot send to " + NAME + ": " + (e.getCause() == null ? e : e.getCause().getMessage());
        } catch (TimeoutException e) {
            return "cannot send to " + NAME + ": no acknowledgement in " + SEND_TIMEOUT_S + " s";
        }
    }

    /** One describe call of the topic's configuration. */
    @FunctionalInterface
    interface Describe {
        Config call() throws ExecutionException, InterruptedException, TimeoutException;
    }

    /**
     * Describes the topic, retrying while the broker does not know it yet: a topic another worker or coordinator
     * created a moment ago answers {@link UnknownTopicOrPartitionException} until its metadata has propagated
     * (workers starting together race to create it).
     *
     * @param describe the describe call
     * @param timeout  how long an unknown topic is retried, on the clock
     * @param clock    the clock of the deadline and of the pauses between tries; not null
     * @return the topic's configuration
     * @throws IllegalStateException when Kafka does not answer, answers another error, or still does not know the
     *                               topic at the deadline
     * @throws InterruptedException  when interrupted
     */
    static Config describe(Describe describe, Duration timeout, CapClock clock) throws InterruptedException {
        long deadlineNano = clock.nanoTime() + timeout.toNanos();
        while (true) {
            try {
                return describe.call();
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof UnknownTopicOrPartitionException) || clock.nanoTime() - deadlineNano > 0) {
                    throw new IllegalStateException("cannot describe " + NAME + ": " + e.getMessage(), e);
                }
                clock.sleep(RETRY);
            } catch (TimeoutException e) {
                throw new IllegalStateException("cannot describe " + NAME + ": no answer from Kafka in " + TIMEOUT_S
                        + " s", e);
            }
        }
    }
}
