package io.capstream.cli.stack;

import io.capstream.schemas.time.CapClock;
import io.capstream.cli.options.KafkaClientProperties;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DeleteConsumerGroupsOptions;
import org.apache.kafka.clients.admin.DeleteTopicsOptions;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.common.errors.GroupIdNotFoundException;
import org.apache.kafka.common.errors.GroupNotEmptyException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * A Kafka Streams application id made for one command ({@code <prefix>-<random UUID>}), and the
 * removal of what such an application leaves on a shared Kafka once it is closed: its internal
 * topics (changelog and repartition topics, named {@code <id>-...}) and its consumer group.
 *
 * <p>Only ids made by {@link #create(String)} can be removed this way, so a fixed or user-given
 * application id (such as the {@code capstream aggregate} service's) is never deleted.
 */
public final class ThrowawayApplicationId {
    /** Pause between attempts to delete a group that still lists a member that is leaving. */
    private static final long GROUP_RETRY_MS = 200;

    private final String value;

    private ThrowawayApplicationId(String value) {
        this.value = value;
    }

    /**
     * @param prefix readable start of the id, e.g. {@code capstream-run}; not null
     * @return a new id {@code <prefix>-<random UUID>}
     */
    public static ThrowawayApplicationId create(String prefix) {
        return new ThrowawayApplicationId(Objects.requireNonNull(prefix, "prefix") + "-" + UUID.randomUUID());
    }

    /** @return the application id (= consumer group id, internal topic prefix) */
    public String value() {
        return value;
    }

    @Override
    public String toString() {
        return value;
    }

    /**
     * Deletes the application's internal topics (every topic whose name starts with
     * {@code <id>-}) and its consumer group. Call it after {@code KafkaStreams.close} with
     * {@code LEAVE_GROUP}; a group that still lists a member is retried until the timeout. Topics
     * or a group that are already gone count as deleted. Never throws.
     *
     * @param kafka   client settings of the cluster (bootstrap servers, security); not null
     * @param timeout bound of the whole cleanup (listing, deletions, retries); positive
     * @return null when everything is gone, else a one-line reason (e.g. "group: ... not empty")
     */
    public String deleteLeftovers(KafkaClientProperties kafka, Duration timeout) {
        return deleteLeftovers(kafka, timeout, CapClock.system());
    }

    /**
     * As {@link #deleteLeftovers(KafkaClientProperties, Duration)}, with the timeout and the retries on a clock.
     *
     * @param kafka   client settings of the cluster (bootstrap servers, security); not null
     * @param timeout bound of the whole cleanup (listing, deletions, retries), on the clock; positive
     * @param clock   the clock of the deadline and of the pauses between retries; not null
     * @return null when everything is gone, else a one-line reason (e.g. "group: ... not empty")
     */
    public String deleteLeftovers(KafkaClientProperties kafka, Duration timeout, CapClock clock) {
        Deadline deadline = new Deadline(clock, clock.nanoTime() + timeout.toNanos());
        List<String> problems = new ArrayList<>();
        Admin admin;
        try {
            admin = Admin.create(kafka.admin());
        } catch (RuntimeException e) {
            return describe(e);
        }
        try {
            try {
                deleteTopics(admin, deadline);
            } catch (Exception e) {
                problems.add("topics: " + describe(e));
            }
            if (!Thread.currentThread().isInterrupted()) {
                try {
                    deleteGroup(admin, deadline);
                } catch (Exception e) {
                    problems.add("group: " + describe(e));
                }
            }
        } finally {
            admin.close(Duration.ofSeconds(1));
        }
        return problems.isEmpty() ? null : String.join("; ", problems);
    }

    private void deleteTopics(Admin admin, Deadline deadline) throws Exception {
        List<String> internal = admin.listTopics(new ListTopicsOptions().timeoutMs(remainingMs(deadline))).names()
                .get(remainingMs(deadline), TimeUnit.MILLISECONDS).stream()
                .filter(t -> t.startsWith(value + "-")).sorted().toList();
        if (internal.isEmpty()) {
            return;
        }
        try {
            admin.deleteTopics(internal, new DeleteTopicsOptions().timeoutMs(remainingMs(deadline))).all()
                    .get(remainingMs(deadline), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof UnknownTopicOrPartitionException)) {
                throw e;
            }
        }
    }

    private void deleteGroup(Admin admin, Deadline deadline) throws Exception {
        while (true) {
            try {
                admin.deleteConsumerGroups(List.of(value), new DeleteConsumerGroupsOptions()
                        .timeoutMs(remainingMs(deadline))).all().get(remainingMs(deadline), TimeUnit.MILLISECONDS);
                return;
            } catch (ExecutionException e) {
                if (e.getCause() instanceof GroupIdNotFoundException) {
                    return;
                }
                // the member's LeaveGroup may not have settled yet: the group is Empty a moment later
                if (!(e.getCause() instanceof GroupNotEmptyException)
                        || remainingMs(deadline) <= GROUP_RETRY_MS) {
                    throw e;
                }
                deadline.clock().sleep(Duration.ofMillis(GROUP_RETRY_MS));
            }
        }
    }

    /** The cleanup's deadline: ns on the clock's monotonic scale. */
    private record Deadline(CapClock clock, long atNs) {
    }

    private static int remainingMs(Deadline deadline) {
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE,
                TimeUnit.NANOSECONDS.toMillis(deadline.atNs() - deadline.clock().nanoTime())));
    }

    private static String describe(Throwable e) {
        if (e instanceof InterruptedException) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
        if (e instanceof TimeoutException) {
            return "no answer from Kafka in time";
        }
        Throwable t = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
        return t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
    }
}
