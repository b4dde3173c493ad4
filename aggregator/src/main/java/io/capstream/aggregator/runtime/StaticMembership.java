package io.capstream.aggregator.runtime;

import io.capstream.schemas.artifact.ArtifactJson;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.streams.StreamsConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Static consumer-group membership (Kafka's {@code group.instance.id}, KIP-345) for a long-lived {@code aggregate}:
 * an id kept in its state directory, so that the same instance started again on the same directory, after a
 * {@code kill -9} or a crash, takes its dead predecessor's place in the group at once. Without it the group
 * coordinator waits for the dead member's session timeout (45 s) before the new process gets any partition: a
 * restart on the same state directory reached lag 0 only after 44.5 s ({@code bench/windows/restore.sh},
 * {@code SAME_STATE=1}). The same directory also keeps Kafka Streams' process id, hence its transactional ids, so
 * the restarted producers fence the dead ones and their open transactions are aborted at once.
 *
 * <p>A clean stop still leaves the group at once ({@link StreamsRuntime#close()} closes with
 * {@code LEAVE_GROUP}), so another instance takes over without waiting. Kafka Streams appends each stream thread's
 * index to the id. The id is set on the main consumer only ({@code main.consumer.group.instance.id}); a
 * {@code group.instance.id} the user gives (plain, {@code consumer.} or {@code main.consumer.} prefixed) wins.
 * Stateless.
 */
public final class StaticMembership {
    /** The file, in {@code <state dir>/<application id>/}, that keeps the instance id. */
    static final String FILE = "capstream-group-instance-id";
    /** The property set on the main consumer. */
    static final String PROPERTY = StreamsConfig.mainConsumerPrefix(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG);
    private static final Pattern ID = Pattern.compile("capstream-[0-9a-f-]{36}");
    private static final Logger LOG = LoggerFactory.getLogger(StaticMembership.class);

    private StaticMembership() {
    }

    /**
     * @param stateDir      Kafka Streams' state directory ({@code state.dir}); not null
     * @param applicationId the application id; not null
     * @param user          the user's Kafka properties; not null
     * @return {@code main.consumer.group.instance.id} with this state directory's id ({@code capstream-<UUID>},
     *         created on first use), or an empty map when the user set a {@code group.instance.id} or the id file
     *         cannot be read or written (then Kafka Streams reports the state directory's problem itself, and the
     *         membership stays dynamic)
     */
    public static Map<String, String> properties(Path stateDir, String applicationId, Map<String, String> user) {
        Objects.requireNonNull(stateDir, "stateDir");
        Objects.requireNonNull(applicationId, "applicationId");
        String key = ConsumerConfig.GROUP_INSTANCE_ID_CONFIG;
        if (user.containsKey(key) || user.containsKey(StreamsConfig.consumerPrefix(key)) || user.containsKey(PROPERTY)) {
            return Map.of();
        }
        try {
            return Map.of(PROPERTY, instanceId(stateDir.resolve(applicationId).resolve(FILE)));
        } catch (IOException | RuntimeException e) {
            LOG.warn("no static group membership (the id file in {} cannot be used: {}); a restart after a crash"
                    + " then waits for the group's session timeout", stateDir, e.toString());
            return Map.of();
        }
    }

    /**
     * @param file the id file; its parent directories are created
     * @return the id the file holds, or a new one written to it when it holds none
     *         ({@link ArtifactJson#writeAtomically}: a reader never sees half an id)
     * @throws IOException when the file cannot be read or written
     */
    static String instanceId(Path file) throws IOException {
        if (Files.isRegularFile(file)) {
            String held = Files.readString(file, StandardCharsets.UTF_8).trim();
            if (ID.matcher(held).matches()) {
                return held;
            }
        }
        Files.createDirectories(file.getParent());
        String id = "capstream-" + UUID.randomUUID();
        ArtifactJson.writeAtomically(file, id + "\n");
        return id;
    }
}
