package io.capstream.cli.embedded;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.config.ConfigResource;

/**
 * Brings the segment settings of capstream's compacted topics that already exist ({@code capstream.reports},
 * {@code capstream.reports.chunks}, {@code capstream.sweeps}, created before {@link TopicSetup} set them) to
 * {@link TopicSetup}'s: {@code segment.bytes}, {@code segment.ms} and {@code min.cleanable.dirty.ratio}, each only
 * where nobody set it (its source is Kafka's built-in default: neither the topic nor the broker configures it), so
 * that compaction reaches the superseded report chunks (with the default 1 GiB active segment it never did; issue 31,
 * bench/windows/README.md 2026-12-06). Safe on a live topic: these settings decide when a segment rolls and when the
 * cleaner runs, and compaction only removes records superseded by a later one with the same key. A broker that refuses
 * (no ALTER_CONFIGS permission, an old broker) leaves the topics as they are: the start goes on. Stateless.
 */
public final class CompactedTopicSegments {
    private static final long TIMEOUT_MS = 10_000;

    private CompactedTopicSegments() {
    }

    /**
     * The settings to change (no broker call).
     *
     * @param current  each existing compacted topic's described configuration; not null
     * @param settings the wanted value per setting name ({@link TopicSetup#segmentSettings()}); not null
     * @return per topic, the SET operations for the settings still at Kafka's built-in default; topics needing none
     *         are left out
     */
    public static Map<ConfigResource, Collection<AlterConfigOp>> alterations(Map<ConfigResource, Config> current,
                                                                           Map<String, String> settings) {
        Map<ConfigResource, Collection<AlterConfigOp>> out = new HashMap<>();
        for (Map.Entry<ConfigResource, Config> topic : current.entrySet()) {
            List<AlterConfigOp> ops = new ArrayList<>();
            for (Map.Entry<String, String> s : settings.entrySet()) {
                ConfigEntry entry = topic.getValue().get(s.getKey());
                if (entry == null || entry.source() == ConfigEntry.ConfigSource.DEFAULT_CONFIG) {
                    ops.add(new AlterConfigOp(new ConfigEntry(s.getKey(), s.getValue()), AlterConfigOp.OpType.SET));
                }
            }
            if (!ops.isEmpty()) {
                out.put(topic.getKey(), ops);
            }
        }
        return out;
    }

    /**
     * Describes the given existing topics and sets what {@link #alterations} finds; a refusal or a timeout is
     * swallowed (the topics stay as they were).
     *
     * @param admin  the client; not null
     * @param topics names of existing compacted capstream topics; not null
     * @return the number of topics changed (0 when none needed it, or the broker refused)
     * @throws InterruptedException when interrupted while waiting for the broker
     */
    public static int apply(Admin admin, Collection<String> topics) throws InterruptedException {
        if (topics.isEmpty()) {
            return 0;
        }
        List<ConfigResource> resources = topics.stream()
                .map(t -> new ConfigResource(ConfigResource.Type.TOPIC, t)).toList();
        try {
            Map<ConfigResource, Config> current = admin.describeConfigs(resources).all()
                    .get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
            Map<ConfigResource, Collection<AlterConfigOp>> ops = alterations(current, TopicSetup.segmentSettings());
            if (ops.isEmpty()) {
                return 0;
            }
            admin.incrementalAlterConfigs(ops).all().get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
            return ops.size();
        } catch (ExecutionException | TimeoutException e) {
            return 0;
        }
    }
}
