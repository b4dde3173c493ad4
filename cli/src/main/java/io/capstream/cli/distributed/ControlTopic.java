package io.capstream.cli.distributed;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;

/**
 * The control topic {@value #NAME} of distributed runs: one partition, {@code
 * message.timestamp.type=LogAppendTime} (so a produced record's timestamp is the broker's clock) and a
 * short retention; the workers and the coordinator send small probe records to it to estimate their
 * {@link ClockOffset}. Created when missing.
 */
public final class ControlTopic {
    /** Topic name. */
    public static final String NAME = "capstream.control";
    /** Retention of probe records, ms (1 hour: nobody reads them back). */
    static final long RETENTION_MS = 3_600_000L;
    private static final long TIMEOUT_S = 30;

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
        NewTopic topic = new NewTopic(NAME, Optional.of(1), Optional.empty()).configs(Map.of(
                TopicConfig.MESSAGE_TIMESTAMP_TYPE_CONFIG, "LogAppendTime",
                TopicConfig.RETENTION_MS_CONFIG, Long.toString(RETENTION_MS)));
        try {
            admin.createTopics(List.of(topic)).all().get(TIMEOUT_S, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw new IllegalStateException("cannot create " + NAME + ": " + e.getCause().getMessage(), e);
            }
        } catch (java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException("cannot create " + NAME + ": no answer from Kafka in " + TIMEOUT_S + " s", e);
        }
        ConfigResource res = new ConfigResource(ConfigResource.Type.TOPIC, NAME);
        try {
            Config config = admin.describeConfigs(List.of(res)).all().get(TIMEOUT_S, TimeUnit.SECONDS).get(res);
            var type = config.get(TopicConfig.MESSAGE_TIMESTAMP_TYPE_CONFIG);
            if (type != null && !"LogAppendTime".equals(type.value())) {
                throw new IllegalStateException(NAME + " has " + TopicConfig.MESSAGE_TIMESTAMP_TYPE_CONFIG + "="
                        + type.value() + "; the clock offset needs LogAppendTime (delete the topic or alter its config)");
            }
        } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException("cannot describe " + NAME + ": " + e.getMessage(), e);
        }
    }
}
