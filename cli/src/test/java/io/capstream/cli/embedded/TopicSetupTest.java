package io.capstream.cli.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import io.capstream.schemas.Topics;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.CreateTopicsResult;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.errors.InvalidConfigurationException;
import org.apache.kafka.common.internals.KafkaFutureImpl;
import org.junit.jupiter.api.Test;

/** The topic definitions {@link TopicSetup} creates (no broker). */
class TopicSetupTest {
    private static Map<String, NewTopic> byName() {
        return TopicSetup.topics(4).stream().collect(Collectors.toMap(NewTopic::name, t -> t));
    }

    @Test
    void compactedTopicsRollSegmentsSmallEnoughForCompactionToReachSupersededChunks() {
        for (String topic : new String[] {Topics.REPORTS, Topics.REPORT_CHUNKS, Topics.SWEEPS}) {
            Map<String, String> configs = byName().get(topic).configs();
            assertThat(configs).as("configs of %s", topic)
                    .containsEntry("cleanup.policy", "compact")
                    .containsEntry("segment.bytes", Integer.toString(4 * 1024 * 1024))
                    .containsEntry("segment.ms", Long.toString(3_600_000L))
                    .containsEntry("min.cleanable.dirty.ratio", "0.25")
                    .containsEntry("max.message.bytes", Integer.toString(TopicSetup.REPORT_MAX_MESSAGE_BYTES));
        }
    }

    @Test
    void segmentsStillTakeTheLargestReportRecord() {
        assertThat(TopicSetup.REPORT_SEGMENT_BYTES).as("segment.bytes against max.message.bytes")
                .isGreaterThan(TopicSetup.REPORT_MAX_MESSAGE_BYTES);
    }

    @Test
    void eventTopicsKeepTheBrokersDeletePolicyAndSegments() {
        assertThat(byName().get(Topics.EVENTS).configs()).as("capstream.events configs").isNullOrEmpty();
        assertThat(byName().get(Topics.EVENTS).numPartitions()).as("capstream.events partitions").isEqualTo(4);
    }

    /**
     * A cluster with a minimum segment size (Confluent Cloud's is 50 MB): before, its refusal of the compacted topics'
     * 4 MiB segments stopped {@code aggregate}; now they are created again without the segment settings.
     */
    @Test
    void aClusterRefusingTheSegmentSettingsGetsTheCompactedTopicsWithItsOwnSegments() throws Exception {
        java.util.List<java.util.List<NewTopic>> calls = new java.util.ArrayList<>();
        Admin admin = (Admin) java.lang.reflect.Proxy.newProxyInstance(Admin.class.getClassLoader(),
                new Class<?>[] {Admin.class}, (proxy, method, args) -> {
                    if (!method.getName().equals("createTopics")) {
                        throw new UnsupportedOperationException(method.getName());
                    }
                    @SuppressWarnings("unchecked")
                    java.util.List<NewTopic> topics = java.util.List.copyOf((java.util.Collection<NewTopic>) args[0]);
                    calls.add(topics);
                    Map<String, KafkaFuture<CreateTopicsResult.TopicMetadataAndConfig>> futures = new java.util.HashMap<>();
                    for (NewTopic t : topics) {
                        KafkaFutureImpl<CreateTopicsResult.TopicMetadataAndConfig> f = new KafkaFutureImpl<>();
                        String segment = t.configs() == null ? null : t.configs().get("segment.bytes");
                        if (segment != null && Integer.parseInt(segment) < 52_428_800) {
                            f.completeExceptionally(new InvalidConfigurationException(
                                    "segment.bytes must be at least 52428800"));
                        } else {
                            f.complete(null);
                        }
                        futures.put(t.name(), f);
                    }
                    return new CreateTopicsResult(futures) { };
                });
        java.util.Set<String> created = TopicSetup.create(admin, TopicSetup.topics(4));
        assertThat(created).as("topics created").containsExactlyInAnyOrderElementsOf(
                TopicSetup.topics(4).stream().map(NewTopic::name).toList());
        assertThat(calls).as("createTopics calls").hasSize(2);
        assertThat(calls.get(1)).as("the second call: the refused compacted topics")
                .extracting(NewTopic::name).containsExactlyInAnyOrder(Topics.REPORTS, Topics.REPORT_CHUNKS, Topics.SWEEPS);
        for (NewTopic t : calls.get(1)) {
            assertThat(t.configs()).as("configs of %s, created again", t.name())
                    .containsEntry("cleanup.policy", "compact")
                    .containsEntry("max.message.bytes", Integer.toString(TopicSetup.REPORT_MAX_MESSAGE_BYTES))
                    .doesNotContainKeys("segment.bytes", "segment.ms", "min.cleanable.dirty.ratio");
            assertThat(t.numPartitions()).as("partitions of %s", t.name()).isEqualTo(1);
        }
    }
}
