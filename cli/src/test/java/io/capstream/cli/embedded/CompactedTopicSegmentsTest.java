package io.capstream.cli.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import io.capstream.schemas.Topics;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.Test;

/** Which segment settings of existing compacted topics {@link CompactedTopicSegments} changes (no broker). */
class CompactedTopicSegmentsTest {
    private static final ConfigResource CHUNKS = new ConfigResource(ConfigResource.Type.TOPIC, Topics.REPORT_CHUNKS);

    private static ConfigEntry entry(String name, String value, ConfigEntry.ConfigSource source) {
        return new ConfigEntry(name, value, source, false, false, List.of(), ConfigEntry.ConfigType.UNKNOWN, null);
    }

    private static Map<String, String> sets(Collection<AlterConfigOp> ops) {
        return ops.stream().peek(op -> assertThat(op.opType()).as("op type of %s", op).isEqualTo(AlterConfigOp.OpType.SET))
                .collect(Collectors.toMap(op -> op.configEntry().name(), op -> op.configEntry().value()));
    }

    @Test
    void aTopicCreatedBeforeGetsEverySettingStillAtKafkasDefault() {
        Config before = new Config(List.of(
                entry("cleanup.policy", "compact", ConfigEntry.ConfigSource.DYNAMIC_TOPIC_CONFIG),
                entry("segment.bytes", "1073741824", ConfigEntry.ConfigSource.DEFAULT_CONFIG),
                entry("segment.ms", "604800000", ConfigEntry.ConfigSource.DEFAULT_CONFIG),
                entry("min.cleanable.dirty.ratio", "0.5", ConfigEntry.ConfigSource.DEFAULT_CONFIG)));
        var ops = CompactedTopicSegments.alterations(Map.of(CHUNKS, before), TopicSetup.segmentSettings());
        assertThat(ops).as("alterations").containsOnlyKeys(CHUNKS);
        assertThat(sets(ops.get(CHUNKS))).as("settings set on %s", CHUNKS).isEqualTo(TopicSetup.segmentSettings());
    }

    @Test
    void settingsSomebodyChoseOnTheTopicOrTheBrokerAreKept() {
        Config chosen = new Config(List.of(
                entry("segment.bytes", "536870912", ConfigEntry.ConfigSource.DYNAMIC_TOPIC_CONFIG),
                entry("segment.ms", "86400000", ConfigEntry.ConfigSource.STATIC_BROKER_CONFIG),
                entry("min.cleanable.dirty.ratio", "0.5", ConfigEntry.ConfigSource.DEFAULT_CONFIG)));
        var ops = CompactedTopicSegments.alterations(Map.of(CHUNKS, chosen), TopicSetup.segmentSettings());
        assertThat(sets(ops.get(CHUNKS))).as("only the setting at Kafka's default")
                .isEqualTo(Map.of("min.cleanable.dirty.ratio", TopicSetup.REPORT_MIN_CLEANABLE_DIRTY_RATIO));
    }

    @Test
    void aTopicAlreadyAlignedNeedsNothing() {
        Config aligned = new Config(TopicSetup.segmentSettings().entrySet().stream()
                .map(e -> entry(e.getKey(), e.getValue(), ConfigEntry.ConfigSource.DYNAMIC_TOPIC_CONFIG)).toList());
        assertThat(CompactedTopicSegments.alterations(Map.of(CHUNKS, aligned), TopicSetup.segmentSettings()))
                .as("alterations for a topic created by this version").isEmpty();
    }
}
