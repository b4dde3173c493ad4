package io.capstream.aggregator.window;

import static org.assertj.core.api.Assertions.assertThat;

import io.capstream.schemas.avro.RunEvent;
import io.capstream.schemas.avro.WindowSummary;
import io.capstream.schemas.serde.SpecificAvroSerde;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.TreeMap;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 31: the window step given the re-keying step's partial aggregates ({@link WindowInput.Partial}) makes the same
 * summaries, every field, as given the same requests one record each (as versions before wrote them, and still read:
 * also mixed in one stream): counts, failures by type, cancelled, tokens, the SLO's good requests, every percentile,
 * the bucket counts, requests merged into closed windows, and {@code late_dropped}.
 */
class PartialAggregatesWindowTest {
    private static final String REGISTRY = "mock://partial-aggregates-window-test";
    private static final String IN = "window-input";
    private static final String OUT = "summaries";
    private static final long T0 = 1_767_225_600_000L;
    private static final Duration SIZE = Duration.ofSeconds(10);
    /** A per-request SLO: E2E under 800 ms. */
    private static final RequestCriterion E2E_UNDER_800 = new RequestCriterion() {
        @Override
        public boolean perRequest() {
            return true;
        }

        @Override
        public boolean metBy(RequestSample sample) {
            return sample.e2eMs() < 800;
        }
    };

    @TempDir
    Path stateDir;

    private final WindowTopologyConfig config = WindowTopologyConfig.defaults(REGISTRY)
            .withWindow(SIZE, Duration.ofSeconds(2)).withSlos(List.of(E2E_UNDER_800)).withInput(1, null);

    /** One request as the re-keying step sees it. */
    private record Req(String key, long time, WindowInput input) {
    }

    /** How the requests cross the repartition topic. */
    private enum Form { PER_REQUEST, PARTIALS, MIXED }

    @Test
    void partialsGiveTheSameSummariesAsOneRecordPerRequest() {
        List<Req> requests = requests(new Random(31));
        Map<String, WindowSummary> perRequest = summaries(requests, Form.PER_REQUEST, "per-request");
        Map<String, WindowSummary> partials = summaries(requests, Form.PARTIALS, "partials");
        Map<String, WindowSummary> mixed = summaries(requests, Form.MIXED, "mixed");

        assertThat(perRequest).as("windows summarised").hasSizeGreaterThan(8);
        long counted = perRequest.values().stream().mapToLong(w -> w.getRequests() + w.getLateDropped()
                + (w.getCancelled() == null ? 0 : w.getCancelled())).sum();
        assertThat(counted).as("every request in a window (the too late ones counted as dropped)")
                .isEqualTo(requests.size() + 5);
        assertThat(perRequest.values().stream().mapToLong(WindowSummary::getLateDropped).sum())
                .as("late_dropped in all windows: the 5 requests 7 h late").isEqualTo(5);
        assertThat(perRequest.values().stream().mapToLong(w -> w.getGoodputRequests() == null ? 0
                : w.getGoodputRequests()).sum()).as("requests meeting the SLO").isPositive();
        assertThat(partials).as("summaries from partials, latest per key, every field")
                .containsExactlyInAnyOrderEntriesOf(perRequest);
        assertThat(mixed).as("summaries from partials and per-request records in one stream")
                .containsExactlyInAnyOrderEntriesOf(perRequest);
    }

    /** Requests of two keys over about a minute, a few far behind (merged into closed windows). */
    private static List<Req> requests(Random r) {
        List<Req> out = new ArrayList<>();
        String[] keys = {"http://t/v1|m|le4096", "http://t/v1|m|le8192"};
        String[] errors = {"URLError", "HttpStatus503", null};
        long t = T0;
        for (int i = 0; i < 600; i++) {
            t += r.nextInt(200);
            long time = t - r.nextInt(1500); // out of order within the grace
            if (i % 97 == 50) {
                time = t - 25_000; // behind a closed window's end: merged into it, emitted again
            }
            out.add(new Req(keys[r.nextInt(keys.length)], time, input(r, errors)));
        }
        return out;
    }

    private static WindowInput input(Random r, String[] errors) {
        int kind = r.nextInt(20);
        if (kind == 0) {
            return new WindowInput.Failed(null, true); // cancelled
        } else if (kind <= 2) {
            return new WindowInput.Failed(errors[r.nextInt(errors.length)], false);
        } else if (kind == 3) {
            return new WindowInput.Completed(new RequestSample(Double.NaN, Double.NaN, 20 + r.nextInt(300), null, null,
                    null, r.nextBoolean() ? null : (long) r.nextInt(500), 0, false, null)); // embeddings
        }
        double ttft = 30 + r.nextInt(900) + r.nextDouble();
        List<Integer> gaps = new ArrayList<>();
        for (int g = r.nextInt(6); g > 0; g--) {
            gaps.add(r.nextInt(90_000));
        }
        return new WindowInput.Completed(new RequestSample(ttft, ttft - r.nextInt(20), ttft + r.nextInt(1500),
                r.nextBoolean() ? 5 + r.nextDouble() * 30 : null, 20 + r.nextDouble() * 80,
                r.nextBoolean() ? 1000 + r.nextDouble() * 30_000 : null,
                r.nextBoolean() ? (long) r.nextInt(8000) : null,
                r.nextInt(512), true, gaps.isEmpty() ? null : gaps));
    }

    /** @return the latest summary per key after feeding {@code requests} in {@code form} */
    private Map<String, WindowSummary> summaries(List<Req> requests, Form form, String name) {
        SpecificAvroSerde<WindowSummary> summarySerde = SpecificAvroSerde.forValue(WindowSummary.class, REGISTRY);
        WindowInputSerde inputSerde = new WindowInputSerde(
                SpecificAvroSerde.forValue(RunEvent.class, REGISTRY).deserializer());
        StreamsBuilder b = new StreamsBuilder();
        b.addStateStore(WindowAggregateStore.builder(WindowTopology.AGGREGATES_STORE));
        b.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(WindowTopology.SERVER_STORE),
                Serdes.String(), new ServerWindowStateSerde()));
        b.addStateStore(Stores.windowStoreBuilder(Stores.persistentWindowStore(WindowTopology.SUMMARIES_STORE,
                config.retention(), config.windowSize(), false), Serdes.String(), summarySerde));
        b.stream(IN, Consumed.with(Serdes.String(), inputSerde))
                .process(() -> new TumblingWindowProcessor(config, LateRequestListener.NONE),
                        WindowTopology.AGGREGATES_STORE, WindowTopology.SERVER_STORE, WindowTopology.SUMMARIES_STORE)
                .process(SummaryMaterializer::new, WindowTopology.SUMMARIES_STORE)
                .to(OUT, Produced.with(Serdes.String(), summarySerde));
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "partials-" + name);
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.resolve(name).toString());
        Map<String, WindowSummary> latest = new TreeMap<>();
        try (TopologyTestDriver driver = new TopologyTestDriver(b.build(), props)) {
            TestInputTopic<String, WindowInput> in = driver.createInputTopic(IN, Serdes.String().serializer(),
                    inputSerde.serializer());
            Feed feed = new Feed(in, form);
            Random batches = new Random(7);
            for (int i = 0; i < requests.size(); ) {
                int n = Math.min(requests.size() - i, 1 + batches.nextInt(40));
                feed.batch(requests.subList(i, i + n));
                i += n;
            }
            driver.advanceWallClockTime(Duration.ofSeconds(2)); // the windows that took late requests emitted again
            feed.progress(T0 + 7 * 3_600_000L); // every window closed, and past the time late requests are merged
            // 5 requests of the first window, too late even to be merged: counted in its late_dropped
            List<Req> tooLate = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                tooLate.add(new Req("http://t/v1|m|le4096", T0 + 1000 + i, new WindowInput.Failed("URLError", false)));
            }
            feed.batch(tooLate);
            driver.advanceWallClockTime(Duration.ofSeconds(2)); // late requests' updates
            driver.createOutputTopic(OUT, Serdes.String().deserializer(), summarySerde.deserializer())
                    .readKeyValuesToList().forEach(kv -> latest.put(kv.key, kv.value));
        }
        return latest;
    }

    /** Writes requests to the window step's input as the re-keying step (of this or an earlier version) would. */
    private final class Feed {
        private final TestInputTopic<String, WindowInput> in;
        private final Form form;
        private long max = Long.MIN_VALUE;
        private long broadcast = Long.MIN_VALUE;
        private int batches;

        Feed(TestInputTopic<String, WindowInput> in, Form form) {
            this.in = in;
            this.form = form;
        }

        void batch(List<Req> requests) {
            boolean partials = form == Form.PARTIALS || (form == Form.MIXED && batches % 2 == 0);
            batches++;
            if (!partials) {
                for (Req q : requests) { // as before: each request with its partition's progress so far
                    max = Math.max(max, q.time());
                    pipe(q.key(), q.input(), q.time(), max);
                }
                return;
            }
            PartialAggregates buffer = new PartialAggregates(SIZE.toMillis(), config.relativeAccuracy(),
                    config.slos());
            for (Req q : requests) {
                buffer.add(q.key(), q.time(), q.input());
                max = Math.max(max, q.time());
            }
            for (PartialAggregates.Partial p : buffer.drain()) {
                pipe(p.key(), new WindowInput.Partial(p.windowStart(), p.aggregate()), p.maxTime(), broadcast);
            }
            progress(max);
        }

        void progress(long time) {
            max = Math.max(max, time);
            pipe(RekeyProcessor.PROGRESS_KEY, null, max, max);
            broadcast = max;
        }

        private void pipe(String key, WindowInput value, long timestamp, long progress) {
            in.pipeInput(new TestRecord<>(key, value,
                    new SourceProgress(0, progress, false).addTo(new RecordHeaders()), timestamp));
        }
    }
}
