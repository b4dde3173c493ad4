package io.capstream.cli.distributed;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.TopicConfig;

/**
 * The plan topic of one distributed run, {@code capstream.plan.<run id>}: N partitions, partition
 * {@code k} holding share {@code k} of N ({@link io.capstream.schemas.avro.WorkerShare}). The workers
 * subscribe to {@link #PATTERN} in one consumer group, so that Kafka's own partition assignment
 * ({@code RangeAssignor}: per topic, N members and N partitions give one partition each) hands every
 * worker one share. The coordinator deletes the topic once the run's report has arrived or the run is given
 * up; a topic left by a coordinator that was killed is deleted by the next one that starts ({@link PlanCleanup}).
 */
public final class PlanTopic {
    /** Prefix of plan topic names. */
    public static final String PREFIX = "capstream.plan.";
    /** What the workers subscribe to. */
    public static final Pattern PATTERN = Pattern.compile("capstream\\.plan\\..*");
    /** Retention of a plan, ms (1 day: a topic not deleted by its coordinator ages out). */
    static final long RETENTION_MS = 86_400_000L;
    private static final long TIMEOUT_S = 30;

    private PlanTopic() {
    }

    /**
     * @param runId the run id; not null
     * @return the plan topic's name
     */
    public static String name(String runId) {
        return PREFIX + runId;
    }

    /**
     * @param admin  an admin client; not null
     * @param runId  the run id
     * @param shares number of partitions (= workers), &gt;= 1
     * @throws IllegalStateException when it cannot be created (it exists: a reused run id) in 30 s
     * @throws InterruptedException  when interrupted
     */
    public static void create(Admin admin, String runId, int shares) throws InterruptedException {
        NewTopic t = new NewTopic(name(runId), Optional.of(shares), Optional.empty())
                .configs(Map.of(TopicConfig.RETENTION_MS_CONFIG, Long.toString(RETENTION_MS)));
        try {
            admin.createTopics(List.of(t)).all().get(TIMEOUT_S, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("cannot create the plan topic " + name(runId) + ": "
                    + (e.getCause() == null ? e.toString() : e.getCause().getMessage()), e);
        }
    }

    /**
     * Deletes the plan topic, best effort.
     *
     * @param admin an admin client; not null
     * @param runId the run id
     * @return null when deleted, else why not
     */
    public static String delete(Admin admin, String runId) {
        try {
            admin.deleteTopics(List.of(name(runId))).all().get(TIMEOUT_S, TimeUnit.SECONDS);
            return null;
        } catch (ExecutionException e) {
            if (e.getCause() instanceof org.apache.kafka.common.errors.UnknownTopicOrPartitionException) {
                return null; // already gone (another coordinator's cleanup, PlanCleanup)
            }
            return e.getCause() == null ? e.toString() : e.getCause().getMessage();
        } catch (TimeoutException e) {
            return e.toString();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
    }
}
