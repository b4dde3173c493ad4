package io.capstream.cli.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import io.capstream.schemas.Topics;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.NewTopic;
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
}
