package io.capstream.cli.options;

import io.capstream.aggregator.events.EventPartitions;
import io.capstream.cli.embedded.TopicSetup;
import java.time.Duration;
import java.util.Objects;
import java.util.Set;
import org.apache.kafka.clients.admin.Admin;

/**
 * The one Admin client of {@code aggregate}'s start: the reachability wait ({@link #probe}, for {@link KafkaWait}),
 * the topic setup ({@link #ensureTopics}) and the events topic's partition count ({@link #partitions}) share it, so
 * that the start pays for one client's connection and metadata instead of three, one after another (issue 31: the
 * three were part of the 5.7 s from launch to {@code KafkaStreams.start()}; bench/windows/README.md). Created at the
 * first {@link #probe}; an address it cannot be created for (unresolvable, malformed) is that probe's one-line error,
 * as with {@link KafkaReachability#probe(KafkaClientProperties, Duration)}. Not thread-safe; closed once.
 */
public final class StartupAdmin implements AutoCloseable {
    private final KafkaClientProperties props;
    private Admin admin;

    /** @param props client settings (bootstrap servers, security); bootstrap servers not null */
    public StartupAdmin(KafkaClientProperties props) {
        this.props = Objects.requireNonNull(props, "props");
        Objects.requireNonNull(props.bootstrapServers(), "bootstrap servers");
    }

    /**
     * @param timeout how long to wait for a broker
     * @return whether a broker answered in time, and if not why ({@link KafkaReachability#probe(Admin, String, Duration)})
     */
    public KafkaReachability.Outcome probe(Duration timeout) {
        if (admin == null) {
            try {
                admin = Admin.create(props.admin());
            } catch (RuntimeException e) {
                return KafkaReachability.failure(props.bootstrapServers(), e, timeout);
            }
        }
        return KafkaReachability.probe(admin, props.bootstrapServers(), timeout);
    }

    /**
     * Creates the capstream topics that are missing ({@link TopicSetup#ensureTopics(Admin, String, int)}); after a
     * {@link #probe} that succeeded.
     *
     * @param eventPartitions partitions of {@code capstream.events} when it is created; at least 1
     * @return the topics created
     * @throws IllegalStateException when a topic cannot be created in time, or no probe succeeded before
     */
    public Set<String> ensureTopics(int eventPartitions) {
        return TopicSetup.ensureTopics(client(), props.bootstrapServers(), eventPartitions);
    }

    /**
     * @param topic   the topic; not null
     * @param timeout how long to wait for the answer
     * @return its partition count, 0 when it cannot be told in time ({@link EventPartitions#count(Admin, String, Duration)})
     * @throws InterruptedException when interrupted while waiting
     */
    public int partitions(String topic, Duration timeout) throws InterruptedException {
        return EventPartitions.count(client(), topic, timeout);
    }

    private Admin client() {
        if (admin == null) {
            throw new IllegalStateException("no Admin client: probe first");
        }
        return admin;
    }

    /** Closes the client without waiting for calls still in flight (none after the start's checks). */
    @Override
    public void close() {
        if (admin != null) {
            admin.close(Duration.ZERO);
            admin = null;
        }
    }
}
