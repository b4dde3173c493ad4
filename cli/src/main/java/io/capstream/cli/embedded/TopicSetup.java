package io.capstream.cli.embedded;

import io.capstream.schemas.Topics;
import io.capstream.schemas.time.CapClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.CreateTopicsResult;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.errors.InvalidConfigurationException;
import org.apache.kafka.common.errors.PolicyViolationException;
import org.apache.kafka.common.errors.TopicExistsException;

/**
 * Creates capstream's topics ({@link Topics}) when they do not exist yet; existing topics are left
 * as they are. {@code capstream.reports} (latest report per run id),
 * {@code capstream.reports.chunks} (the artifacts of large reports in pieces, latest per
 * {@code <run id>|<index>}) and {@code capstream.sweeps} (latest capacity curve per sweep id) are
 * compacted and take records up to {@value #REPORT_MAX_MESSAGE_BYTES} bytes ({@code max.message.bytes},
 * the broker's default, set on the topic so that a broker with a lower default still takes every
 * report record: the aggregator keeps each below 960 KiB), and roll a segment every {@value #REPORT_SEGMENT_BYTES}
 * bytes or {@value #REPORT_SEGMENT_MS} ms ({@code segment.bytes}, {@code segment.ms}) with a
 * {@code min.cleanable.dirty.ratio} of {@value #REPORT_MIN_CLEANABLE_DIRTY_RATIO}: compaction never cleans a topic's
 * active segment, and with the broker's default 1 GiB segment a republished report's superseded chunks were never
 * removed, so every {@code aggregate} with a fresh state read back every chunk ever published before its stream
 * threads started (issue 31; bench/windows/README.md, 2026-12-06); the others use the broker's default delete
 * policy. Replication factor: the broker default
 * ({@code default.replication.factor}).
 */
public final class TopicSetup {
    /**
     * Partitions of {@code capstream.events} when the caller has no preference: 4 spreads evenly
     * over 1, 2 or 4 stream threads (the default is one per core, see StreamsSettings).
     */
    public static final int DEFAULT_EVENT_PARTITIONS = 4;
    /** {@code max.message.bytes} of the compacted topics (reports, report chunks, sweeps): 1,048,588, the broker's default. */
    public static final int REPORT_MAX_MESSAGE_BYTES = 1_048_588;
    /**
     * {@code segment.bytes} of the compacted topics, bytes: 4 MiB instead of the broker's 1 GiB, so that compaction
     * (which skips the active segment) reaches all but the last 4 MiB. The chunks travel gzip-compressed (about a
     * tenth of their JSON), so 4 MiB holds about 40 MB of artifacts: some 7 reports of 10,000 requests; 16 MiB still
     * let four aggregates of the same ten reports pile up in the active segment (bench/windows/README.md, 2026-12-06).
     */
    public static final int REPORT_SEGMENT_BYTES = 4 * 1024 * 1024;
    /**
     * {@code segment.ms} of the compacted topics, ms: one hour instead of the broker's 7 days, so that a topic written
     * to rarely (the reports themselves, a few KiB each) also rolls its segment and gets compacted.
     */
    public static final long REPORT_SEGMENT_MS = 60L * 60 * 1000;
    /**
     * {@code min.cleanable.dirty.ratio} of the compacted topics: 0.25 instead of 0.5. A report is republished whole
     * (every chunk superseded at once), so after a second publication of the same reports the dirty part is about
     * half of the log, at the default's edge; 0.25 lets the cleaner run then.
     */
    public static final String REPORT_MIN_CLEANABLE_DIRTY_RATIO = "0.25";
    private static final long TIMEOUT_MS = 30_000;

    private TopicSetup() {
    }

    /**
     * Creates every capstream topic that is missing.
     *
     * @param bootstrap       Kafka bootstrap servers; never null
     * @param clientProps     extra admin client settings (security etc.); may be empty, never null
     * @param eventPartitions partitions of {@code capstream.events} (and its DLQ); at least 1
     * @return the names of the topics this call created (empty when all existed)
     * @throws IllegalStateException when a topic cannot be created within 30 s
     */
    public static Set<String> ensureTopics(String bootstrap, Map<String, String> clientProps, int eventPartitions) {
        if (eventPartitions < 1) {
            throw new IllegalArgumentException("eventPartitions must be >= 1, got " + eventPartitions);
        }
        Map<String, Object> props = new HashMap<>(clientProps);
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        try (Admin admin = Admin.create(props)) {
            return ensureTopics(admin, bootstrap, eventPartitions);
        }
    }

    /**
     * Creates every capstream topic that is missing, over an Admin client the caller owns (and closes), and returns
     * once every partition of those it created has a leader ({@link PartitionLeaders}); on the compacted ones that
     * exist, sets the segment settings still at Kafka's default ({@link CompactedTopicSegments}).
     *
     * @param admin           the client; not null
     * @param bootstrap       its bootstrap servers (for the messages); not null
     * @param eventPartitions partitions of {@code capstream.events} (and its DLQ); at least 1
     * @return the names of the topics this call created (empty when all existed)
     * @throws IllegalStateException when a topic cannot be created, or a created partition has no leader, within 30 s
     */
    public static Set<String> ensureTopics(Admin admin, String bootstrap, int eventPartitions) {
        if (eventPartitions < 1) {
            throw new IllegalArgumentException("eventPartitions must be >= 1, got " + eventPartitions);
        }
        try {
            Set<String> existing = admin.listTopics().names().get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
            List<NewTopic> wanted = new ArrayList<>();
            for (NewTopic t : topics(eventPartitions)) {
                if (!existing.contains(t.name())) {
                    wanted.add(t);
                }
            }
            List<String> compactedExisting = COMPACTED.stream().filter(existing::contains).toList();
            CompactedTopicSegments.apply(admin, compactedExisting);
            if (wanted.isEmpty()) {
                return Set.of();
            }
            Set<String> created = create(admin, wanted);
            // a producer sending before a new partition has its leader can lose its first batch (PartitionLeaders)
            PartitionLeaders.await(admin, created, Duration.ofMillis(TIMEOUT_MS), CapClock.system());
            return created;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while creating topics", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("cannot list topics on " + bootstrap + ": " + e, e);
        }
    }

    /**
     * Creates the given topics. A compacted topic whose segment settings the cluster refuses (a managed Kafka with a
     * minimum {@code segment.bytes} above {@value #REPORT_SEGMENT_BYTES}, or a create-topic policy) is created again
     * without them, with the cluster's segments: compaction then reaches fewer superseded chunks, but
     * {@code aggregate} starts.
     *
     * @param admin  the client; not null
     * @param wanted the topics to create; not null
     * @return the names of the topics created (one that exists already is not an error and not in the set)
     * @throws IllegalStateException when a topic cannot be created
     * @throws InterruptedException  when interrupted while waiting
     * @throws TimeoutException      when the broker does not answer within 30 s
     */
    static Set<String> create(Admin admin, List<NewTopic> wanted) throws InterruptedException, TimeoutException {
        Set<String> created = new TreeSet<>();
        List<NewTopic> refused = createEach(admin, wanted, created, true);
        if (!refused.isEmpty()) {
            createEach(admin, refused.stream().map(TopicSetup::withoutSegmentSettings).toList(), created, false);
        }
        return created;
    }

    /** @return the topics refused for their segment settings (only when {@code retryable}); the rest throw */
    private static List<NewTopic> createEach(Admin admin, List<NewTopic> topics, Set<String> created,
                                             boolean retryable) throws InterruptedException, TimeoutException {
        Map<String, NewTopic> byName = new HashMap<>();
        topics.forEach(t -> byName.put(t.name(), t));
        CreateTopicsResult result = admin.createTopics(topics);
        List<NewTopic> refused = new ArrayList<>();
        for (Map.Entry<String, KafkaFuture<Void>> e : result.values().entrySet()) {
            try {
                e.getValue().get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
                created.add(e.getKey());
            } catch (ExecutionException ex) {
                Throwable cause = ex.getCause();
                NewTopic topic = byName.get(e.getKey());
                if (cause instanceof TopicExistsException) {
                    continue;
                }
                if (retryable && topic != null && hasSegmentSettings(topic)
                        && (cause instanceof InvalidConfigurationException || cause instanceof PolicyViolationException)) {
                    refused.add(topic);
                    continue;
                }
                throw new IllegalStateException("cannot create topic " + e.getKey() + ": " + cause, ex);
            }
        }
        return refused;
    }

    private static boolean hasSegmentSettings(NewTopic t) {
        return t.configs() != null && t.configs().keySet().stream().anyMatch(SEGMENT_SETTINGS::containsKey);
    }

    private static NewTopic withoutSegmentSettings(NewTopic t) {
        Map<String, String> configs = new HashMap<>(t.configs());
        configs.keySet().removeAll(SEGMENT_SETTINGS.keySet());
        return new NewTopic(t.name(), t.numPartitions() < 0 ? Optional.empty() : Optional.of(t.numPartitions()),
                Optional.empty()).configs(configs);
    }

    private static final List<String> COMPACTED = List.of(Topics.REPORTS, Topics.REPORT_CHUNKS, Topics.SWEEPS);
    private static final Map<String, String> SEGMENT_SETTINGS = Map.of(
            "segment.bytes", Integer.toString(REPORT_SEGMENT_BYTES),
            "segment.ms", Long.toString(REPORT_SEGMENT_MS),
            "min.cleanable.dirty.ratio", REPORT_MIN_CLEANABLE_DIRTY_RATIO);
    private static final Map<String, String> REPORT_TOPIC_CONFIGS = reportTopicConfigs();

    private static Map<String, String> reportTopicConfigs() {
        Map<String, String> m = new HashMap<>(SEGMENT_SETTINGS);
        m.put("cleanup.policy", "compact");
        m.put("max.message.bytes", Integer.toString(REPORT_MAX_MESSAGE_BYTES));
        return Map.copyOf(m);
    }

    /**
     * @return the segment settings of the compacted topics ({@code segment.bytes}, {@code segment.ms},
     *         {@code min.cleanable.dirty.ratio}), set at creation and, where still at Kafka's default, on topics that
     *         exist ({@link CompactedTopicSegments})
     */
    public static Map<String, String> segmentSettings() {
        return SEGMENT_SETTINGS;
    }

    /**
     * The topic definitions (no broker call).
     *
     * @param eventPartitions partitions of {@code capstream.events} and its DLQ
     * @return one {@link NewTopic} per capstream topic
     */
    public static List<NewTopic> topics(int eventPartitions) {
        return List.of(
                new NewTopic(Topics.EVENTS, Optional.of(eventPartitions), Optional.empty()),
                new NewTopic(Topics.REPORTS, Optional.of(1), Optional.empty()).configs(REPORT_TOPIC_CONFIGS),
                new NewTopic(Topics.REPORT_CHUNKS, Optional.of(1), Optional.empty()).configs(REPORT_TOPIC_CONFIGS),
                new NewTopic(Topics.SWEEPS, Optional.of(1), Optional.empty()).configs(REPORT_TOPIC_CONFIGS),
                new NewTopic(Topics.SUMMARIES, Optional.of(1), Optional.empty()),
                new NewTopic(Topics.ALERTS, Optional.of(1), Optional.empty()),
                new NewTopic(Topics.CHANGES, Optional.of(1), Optional.empty()),
                new NewTopic(Topics.SERVER_METRICS, Optional.of(1), Optional.empty()),
                new NewTopic(Topics.EVENTS_DLQ, Optional.of(eventPartitions), Optional.empty()));
    }
}
