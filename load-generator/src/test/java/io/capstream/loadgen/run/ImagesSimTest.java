package io.capstream.loadgen.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.capstream.loadgen.emit.InMemoryEventSink;
import io.capstream.loadgen.images.ImageSize;
import io.capstream.loadgen.sim.SimConfig;
import io.capstream.loadgen.sim.SimEngine;
import io.capstream.loadgen.workload.ApiEndpoint;
import io.capstream.loadgen.workload.LengthDistribution;
import io.capstream.schemas.avro.RequestCompleted;
import io.vertx.core.Vertx;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Images end to end on the built-in sim (issue 30): every request event records its images, their encoded bytes and
 * pixels, and the sim charges them in the prompt tokens; conversation turns re-send earlier turns' images.
 */
class ImagesSimTest {
    private Vertx vertx;
    private SimEngine sim;

    @BeforeEach
    void start() throws Exception {
        vertx = Vertx.vertx();
        sim = SimEngine.start(vertx, SimConfig.builder().ttftBaseMs(2).decodeTokPerS(5000).streamDecodeTokPerS(2000)
                .tickMs(2).build()).toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS);
    }

    @AfterEach
    void stop() {
        sim.close();
        vertx.close().toCompletionStage().toCompletableFuture().join();
    }

    private RunConfig config(ApiEndpoint api) {
        return RunConfig.of(TargetConfig.of(sim.baseUrl(), SimConfig.defaults().modelId()))
                .withTarget(t -> t.withEndpoint(api))
                .withLoad(l -> l.withRequests(6).withConcurrency(2))
                .withRequest(r -> r.withMaxTokens(8).withCtxTokens(256).withSharedPrefixTokens(0)
                        .withMaxModelLen(8192))
                .withWarmup(new WarmupConfig(0, 0))
                .withPayload(new PayloadShape(2, List.of(new ImageSize(56, 56), new ImageSize(84, 28)), "png", null));
    }

    @Test
    void everyRequestEventRecordsItsImagesAndTheSimChargesThem() throws Exception {
        for (ApiEndpoint api : List.of(ApiEndpoint.CHAT, ApiEndpoint.RESPONSES, ApiEndpoint.MESSAGES)) {
            InMemoryEventSink sink = new InMemoryEventSink();
            long before = sim.stats().imageTokens();
            RunOutcome o = new LoadGenerator(vertx).run(config(api), sink, RunListener.NONE).get(60, TimeUnit.SECONDS);
            List<RequestCompleted> done = sink.payloads(RequestCompleted.class);
            assertThat(o.completed()).as("%s completed; events %s", api, done).isEqualTo(6);
            // each message: one 56x56 (2x2 = 4 tokens) and one 84x28 (3x1 = 3 tokens) image
            assertThat(done).as("%s images", api).extracting(RequestCompleted::getImages).containsOnly(2);
            assertThat(done).as("%s pixels", api).extracting(RequestCompleted::getImagePixels)
                    .containsOnly(56L * 56 + 84L * 28);
            assertThat(done).as("%s bytes", api).allSatisfy(e -> assertThat(e.getImageBytes()).isGreaterThan(500L));
            assertThat(sim.stats().imageTokens() - before).as("%s image tokens the sim charged", api)
                    .isEqualTo(6 * 7);
        }
    }

    @Test
    void conversationTurnsResendEarlierImages() throws Exception {
        InMemoryEventSink sink = new InMemoryEventSink();
        RunConfig c = config(ApiEndpoint.CHAT).withConversation(s -> s.withTurns(new LengthDistribution(3, 0)));
        RunOutcome o = new LoadGenerator(vertx).run(c, sink, RunListener.NONE).get(60, TimeUnit.SECONDS);
        List<RequestCompleted> done = sink.payloads(RequestCompleted.class).stream()
                .sorted(Comparator.comparingInt(RequestCompleted::getRequestIndex)).toList();
        assertThat(o.completed()).as("completed; events %s", done).isEqualTo(6);
        assertThat(done).as("turns 1..3 of two conversations carry 2, 4, 6 images")
                .extracting(RequestCompleted::getImages).containsExactly(2, 4, 6, 2, 4, 6);
    }
}
