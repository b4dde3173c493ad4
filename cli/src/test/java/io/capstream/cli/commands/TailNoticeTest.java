package io.capstream.cli.commands;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.capstream.schemas.Topics;
import io.capstream.schemas.avro.Quantiles;
import io.capstream.schemas.avro.WindowSummary;
import io.capstream.schemas.registry.SchemaRegistryException;
import io.capstream.schemas.registry.SchemaRegistryUnavailableException;
import io.capstream.schemas.time.ManualCapClock;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RecordDeserializationException;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * What {@code tail} says on stderr: {@code --follow} says at once what it follows, from where and what it waits for (a
 * fresh user saw nothing for a window and its grace, minutes, and could not tell whether it was connected), and a tail
 * that printed nothing says so; a record that cannot be decoded (e.g. written with another registry) is skipped with one
 * line; stdout carries the records only. The topic is a {@link MockConsumer} with two
 * partitions, the registry a stub that answers {@code GET /subjects}, the time a {@link ManualCapClock}.
 */
class TailNoticeTest {
    private static final String SERVERS = "127.0.0.1:9092";
    private final ByteArrayOutputStream outBytes = new ByteArrayOutputStream();
    private final ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
    private final PrintStream out = new PrintStream(outBytes, true, StandardCharsets.UTF_8);
    private final PrintStream err = new PrintStream(errBytes, true, StandardCharsets.UTF_8);
    /** No record at or after any time: a --since read starts at the end. */
    private final MockConsumer<String, SpecificRecord> consumer = new MockConsumer<>("earliest") {
        @Override
        public synchronized Map<TopicPartition, OffsetAndTimestamp> offsetsForTimes(Map<TopicPartition, Long> times) {
            return Map.of();
        }
    };
    private final List<String> stderrAtFirstPoll = new ArrayList<>();
    private HttpServer registry;

    @BeforeEach
    void topicAndRegistry() throws Exception {
        List<TopicPartition> parts = List.of(new TopicPartition(Topics.SUMMARIES, 0),
                new TopicPartition(Topics.SUMMARIES, 1));
        consumer.updatePartitions(Topics.SUMMARIES, parts.stream()
                .map(p -> new PartitionInfo(p.topic(), p.partition(), null, null, null)).toList());
        Map<TopicPartition, Long> offsets = new HashMap<>();
        parts.forEach(p -> offsets.put(p, 0L));
        TopicPartition alerts = new TopicPartition(Topics.ALERTS, 0);
        consumer.updatePartitions(Topics.ALERTS, List.of(new PartitionInfo(Topics.ALERTS, 0, null, null, null)));
        offsets.put(alerts, 0L);
        consumer.updateBeginningOffsets(offsets);
        consumer.updateEndOffsets(offsets);
        registry = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        registry.createContext("/", exchange -> {
            byte[] body = "[]".getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        registry.start();
    }

    @AfterEach
    void stopRegistry() {
        registry.stop(0);
    }

    private int tail(String... args) {
        TailCommand cmd = new TailCommand(out, err);
        cmd.clock = new ManualCapClock(Instant.parse("2026-01-01T12:00:00Z"));
        cmd.kafkaCheck = props -> null;
        cmd.consumers = (props, kind) -> consumer;
        List<String> argv = new ArrayList<>(List.of(args));
        argv.addAll(List.of("--bootstrap-servers", SERVERS, "--schema-registry-url",
                "http://127.0.0.1:" + registry.getAddress().getPort()));
        return new CommandLine(cmd).execute(argv.toArray(String[]::new));
    }

    /** A record at the next poll, then the end of the follow (as Ctrl-C's wakeup does). */
    private void oneRecordThenStop() {
        consumer.schedulePollTask(() -> {
            stderrAtFirstPoll.add(errBytes.toString(StandardCharsets.UTF_8));
            consumer.addRecord(new ConsumerRecord<>(Topics.SUMMARIES, 0, 0L, "k", summary()));
        });
        consumer.schedulePollTask(consumer::wakeup);
    }

    private static WindowSummary summary() {
        return WindowSummary.newBuilder().setTarget("http://127.0.0.1:8000/v1").setModel("m").setContextBucket("le4096")
                .setWindowStartMs(1_767_225_600_000L).setWindowEndMs(1_767_225_660_000L).setRequests(10)
                .setCompleted(9).setFailed(1).setFailuresByType(Map.of("URLError", 1L)).setErrorRate(0.1)
                .setPromptTokens(100).setOutputTokens(600).setOutputThroughputTokS(10.0).setRelativeAccuracy(0.01)
                .setTtftMs(new Quantiles(9L, 120.0, 250.5, 300.0, null, null, null, null)).build();
    }

    @Test
    void aFollowSaysAtOnceWhatItFollowsFromWhereAndWhatItWaitsFor() {
        oneRecordThenStop();
        int code = tail("summaries", "--follow", "--format", "jsonl");
        String stderr = errBytes.toString(StandardCharsets.UTF_8);
        assertThat(code).as("exit code; stderr %s", stderr).isZero();
        assertThat(stderrAtFirstPoll).as("stderr before the first record was read").singleElement().asString()
                .isEqualTo("capstream tail: following capstream.summaries from now on (2 partitions on 127.0.0.1:9092);"
                        + " waiting for the next window the aggregator closes (at the window's end + grace: capstream"
                        + " aggregate's --window and --grace, 1m and 10s by default); Ctrl-C to stop"
                        + System.lineSeparator());
        assertThat(stderr).as("stderr at the end").isEqualTo(stderrAtFirstPoll.get(0));
        assertThat(outBytes.toString(StandardCharsets.UTF_8).lines().toList()).as("stdout: the record only")
                .singleElement().asString().startsWith("{").contains("\"window_start_ms\":1767225600000");
    }

    @Test
    void aFollowSinceADurationNamesTheTimeItStartsAtFromTheInjectedClock() {
        consumer.schedulePollTask(consumer::wakeup);
        int code = tail("alerts", "--follow", "--since", "15m");
        assertThat(code).as("exit code; stderr %s", errBytes).isZero();
        assertThat(errBytes.toString(StandardCharsets.UTF_8)).as("stderr").isEqualTo("capstream tail: following"
                + " capstream.alerts since 2026-01-01 11:45:00Z (1 partition on 127.0.0.1:9092), then new"
                + " records; an alert comes when a window the aggregator closes breaches or recovers an SLO; Ctrl-C to"
                + " stop" + System.lineSeparator());
        assertThat(outBytes.toString(StandardCharsets.UTF_8)).as("stdout").isEmpty();
    }

    @Test
    void aTailWithoutFollowThatFindsNothingSaysSoOnStderrAndPrintsNothingOnStdout() {
        int code = tail("summaries", "--model", "other");
        assertThat(code).as("exit code").isZero();
        assertThat(errBytes.toString(StandardCharsets.UTF_8)).as("stderr").isEqualTo("capstream tail: no records of"
                + " --target/--model in capstream.summaries from the beginning (2 partitions on 127.0.0.1:9092)"
                + System.lineSeparator());
        assertThat(outBytes.toString(StandardCharsets.UTF_8)).as("stdout").isEmpty();
    }

    @Test
    void aTailWithoutFollowThatPrintsRecordsSaysNothingMore() {
        consumer.updateEndOffsets(Map.of(new TopicPartition(Topics.SUMMARIES, 0), 1L));
        consumer.schedulePollTask(() -> consumer.addRecord(new ConsumerRecord<>(Topics.SUMMARIES, 0, 0L, "k",
                summary())));
        int code = tail("summaries", "--format", "jsonl");
        assertThat(code).as("exit code; stderr %s", errBytes).isZero();
        assertThat(errBytes.toString(StandardCharsets.UTF_8)).as("stderr").isEmpty();
        assertThat(outBytes.toString(StandardCharsets.UTF_8).lines().count()).as("stdout lines").isEqualTo(1);
    }

    /**
     * What Kafka's consumer throws at a record whose value the deserializer rejects: here, as for a record written by
     * a run with the in-process {@code mock://} registry, the registry does not know its schema id (404).
     */
    private static RecordDeserializationException undecodable(long offset, RuntimeException registryError) {
        byte[] value = {0, 0, 0, 0, 7, 2, 4};
        return new RecordDeserializationException(RecordDeserializationException.DeserializationExceptionOrigin.VALUE,
                new TopicPartition(Topics.SUMMARIES, 0), offset, 0L, TimestampType.CREATE_TIME, null,
                ByteBuffer.wrap(value), new RecordHeaders(), "Error deserializing VALUE for partition "
                + Topics.SUMMARIES + "-0 at offset " + offset + ". If needed, please seek past the record to continue"
                + " consumption.", new SerializationException("cannot decode WindowSummary from topic "
                + Topics.SUMMARIES + ": " + registryError.getMessage(), registryError));
    }

    /** Partition 0 holds records at offsets 0 to 2; the one at {@code bad} cannot be decoded. */
    private void threeRecordsOneUndecodable(long bad, RuntimeException registryError) {
        consumer.updateEndOffsets(Map.of(new TopicPartition(Topics.SUMMARIES, 0), 3L));
        for (long offset = 0; offset < 3; offset++) {
            long o = offset;
            consumer.schedulePollTask(() -> {
                if (o == bad) {
                    consumer.setPollException(undecodable(o, registryError));
                } else {
                    consumer.addRecord(new ConsumerRecord<>(Topics.SUMMARIES, 0, o, "k", summary()));
                }
            });
        }
    }

    @Test
    void aRecordWrittenWithAnotherRegistryIsSkippedWithOneLineAndTheRecordsAfterItArePrinted() {
        threeRecordsOneUndecodable(1, new SchemaRegistryException("Schema 7 not found", 404, 40403, null));
        int code = tail("summaries", "--format", "jsonl");
        String stderr = errBytes.toString(StandardCharsets.UTF_8);
        assertThat(code).as("exit code, as if the record were not there; stderr %s", stderr).isZero();
        assertThat(stderr).as("stderr: one line for the skipped record").isEqualTo("capstream tail: skipped the"
                + " record at capstream.summaries-0 offset 1: its schema id 7 is unknown to this registry (written"
                + " with another registry, e.g. by a run on this Kafka without --schema-registry-url)"
                + System.lineSeparator());
        assertThat(outBytes.toString(StandardCharsets.UTF_8).lines().toList()).as("stdout: the two good records only")
                .hasSize(2).allSatisfy(line -> assertThat(line).startsWith("{"));
    }

    @Test
    void aTailWhoseOnlyRecordsAreUndecodableSaysHowManyItSkipped() {
        consumer.updateEndOffsets(Map.of(new TopicPartition(Topics.SUMMARIES, 0), 1L));
        consumer.schedulePollTask(() -> consumer.setPollException(undecodable(0,
                new SchemaRegistryException("Schema 7 not found", 404, 40403, null))));
        int code = tail("summaries");
        assertThat(code).as("exit code; stderr %s", errBytes).isZero();
        assertThat(errBytes.toString(StandardCharsets.UTF_8).lines().toList()).as("stderr").containsExactly(
                "capstream tail: skipped the record at capstream.summaries-0 offset 0: its schema id 7 is unknown to"
                        + " this registry (written with another registry, e.g. by a run on this Kafka without"
                        + " --schema-registry-url)",
                "capstream tail: no records in capstream.summaries from the beginning (2 partitions on"
                        + " 127.0.0.1:9092); 1 record skipped, undecodable");
        assertThat(outBytes.toString(StandardCharsets.UTF_8)).as("stdout").isEmpty();
    }

    @Test
    void aRegistryThatDoesNotAnswerIsAnErrorNotASkip() {
        threeRecordsOneUndecodable(1, new SchemaRegistryUnavailableException("schema registry http://127.0.0.1:1"
                + " did not answer GET /schemas/ids/7: Connection refused (after 3 attempts)", -1, -1, null));
        int code = tail("summaries", "--format", "jsonl");
        assertThat(code).as("exit code: the registry's error; stderr %s", errBytes).isEqualTo(1);
        assertThat(errBytes.toString(StandardCharsets.UTF_8)).as("stderr: the registry's error, no skip")
                .isEqualTo("capstream tail: schema registry http://127.0.0.1:1 did not answer GET /schemas/ids/7:"
                        + " Connection refused (after 3 attempts)" + System.lineSeparator());
    }

    @Test
    void aTopicWithoutPartitionsIsSaidNotToExist() {
        assertThat(io.capstream.cli.tail.TailNotice.nothing(io.capstream.cli.tail.TailKind.REPORTS,
                io.capstream.cli.tail.TopicTailer.Start.BEGINNING, 0, 0, SERVERS, false, 0))
                .as("no partitions").isEqualTo("capstream tail: no records in capstream.reports from the beginning (it"
                        + " does not exist on 127.0.0.1:9092 yet)");
    }
}
